// An authorization server built on the TypeScript SDK's own OAuth router
// (mcpAuthRouter: RFC 8414 metadata, dynamic registration, PKCE, its
// RFC 7009 revocation handler with its client authentication) around the
// SDK's example in-memory provider, given what the example leaves out:
// refresh tokens and revokeToken. On a second port, a resource that
// answers 401 with the SDK's protected resource metadata and
// requireBearerAuth, and 200 to a live token. For elicit's logout tests.
//
// ELICIT_TS_SDK: the @modelcontextprotocol/sdk folder; MCP_PORT and
// MCP_AUTH_PORT: the ports.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

const sdk = process.env.ELICIT_TS_SDK;
const esm = (p) => import(path.join(sdk, 'dist/esm', p));
const require = createRequire(path.join(sdk, 'package.json'));
const express = require('express');
const { mcpAuthRouter, mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl, createOAuthMetadata } = await esm('server/auth/router.js');
const { requireBearerAuth } = await esm('server/auth/middleware/bearerAuth.js');
const { InvalidGrantError, InvalidRequestError, InvalidTokenError } = await esm('server/auth/errors.js');
const { DemoInMemoryAuthProvider } = await esm('examples/server/demoInMemoryOAuthProvider.js');

class RevokingProvider extends DemoInMemoryAuthProvider {
  constructor() {
    super();
    this.refreshTokens = new Map(); // refresh token -> { clientId, scopes, resource }
  }
  async exchangeAuthorizationCode(client, code, verifier) {
    const data = this.codes.get(code);
    const tokens = await super.exchangeAuthorizationCode(client, code, verifier);
    const refresh = randomUUID();
    this.refreshTokens.set(refresh, { clientId: client.client_id, scopes: data?.params.scopes || [], resource: data?.params.resource });
    return { ...tokens, refresh_token: refresh };
  }
  async exchangeRefreshToken(client, refreshToken, scopes, resource) {
    const data = this.refreshTokens.get(refreshToken);
    if (!data || data.clientId !== client.client_id) {
      throw new InvalidGrantError('refresh token unknown or revoked');
    }
    const token = randomUUID();
    this.tokens.set(token, { token, clientId: client.client_id, scopes: data.scopes, expiresAt: Date.now() + 3600000, resource: data.resource, type: 'access' });
    return { access_token: token, token_type: 'bearer', expires_in: 3600, refresh_token: refreshToken };
  }
  // The example's verifier throws a plain Error for an unknown token,
  // which requireBearerAuth answers with 500; a revoked token is a 401.
  async verifyAccessToken(token) {
    if (!this.tokens.has(token)) {
      throw new InvalidTokenError('unknown or revoked token');
    }
    return super.verifyAccessToken(token);
  }
  // RFC 7009 §2.1: revoke only the client's own tokens; an unknown token
  // is not an error.
  async revokeToken(client, request) {
    const owner = this.tokens.get(request.token)?.clientId ?? this.refreshTokens.get(request.token)?.clientId;
    if (owner !== undefined && owner !== client.client_id) {
      throw new InvalidRequestError('the token belongs to another client');
    }
    this.tokens.delete(request.token);
    this.refreshTokens.delete(request.token);
    console.log(`revoked ${request.token_type_hint ?? 'token'} for ${client.client_id}`);
  }
}

const mcpPort = process.env.MCP_PORT, authPort = process.env.MCP_AUTH_PORT;
const mcpServerUrl = new URL(`http://localhost:${mcpPort}/mcp`);
const issuerUrl = new URL(`http://localhost:${authPort}`);
const provider = new RevokingProvider();

const authApp = express();
authApp.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ['mcp:tools'] }));
authApp.listen(authPort, () => console.log(`authorization server listening on port ${authPort}`));

const app = express();
app.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: ['mcp:tools'] }), resourceServerUrl: mcpServerUrl, scopesSupported: ['mcp:tools'] }));
app.post('/mcp', requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpServerUrl), expectedResource: mcpServerUrl }),
  (req, res) => res.json({ jsonrpc: '2.0', id: 0, result: {} }));
app.listen(mcpPort, () => console.log(`resource listening on port ${mcpPort}`));

// Package serverspec is how a server named on elicit's command line
// becomes a transport: the flags that name one (Flags: -- CMD ARGS…,
// --url with its headers and OAuth flags, --demo, --config and --server,
// --name, --root), the servers file they may name (Config: Claude
// Desktop's, Cursor's and VS Code's shapes, its ${VAR} and ${input:ID},
// its roots and OAuth, the trust gate of a project's file found in the
// working directory), and the Server and Agent specs they give. A
// Server's Transport masks the run's secrets in everything the transport
// reports: what of a configuration is a secret (SecretValues, MaskArgs)
// is decided here, where it is known.
//
// Names follow the servers file: a spec's command, args, cwd and url are
// what runs, Shown what was written (a ${VAR} expanded into them never
// is shown or recorded).
package serverspec

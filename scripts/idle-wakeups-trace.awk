# scripts/idle-wakeups-trace.awk: reads `go tool trace -d=parsed FILE` and
# counts, inside a window of the run, what made a goroutine runnable:
#   woken: <where it waited>   a goroutine leaving Waiting, named by the
#                              first frame of its wait outside the runtime,
#                              sync, time and context (a renderer tick waits
#                              in tea.(*Program).startRenderer.func1, a cursor
#                              blink in cursor.(*Model).Blink.func1, a
#                              tea.Tick in tea.Tick.func1)
#   new: <start> by <creator>  a goroutine created (a tea.Cmd run by
#                              bubbletea, a time.AfterFunc firing)
# Used by scripts/idle-wakeups (TRACE=1); FROM and TO are seconds after the
# trace's first event. Output: count, per second, what; most first.
function site(frames, n,    i, f) {
	for (i = 1; i <= n; i++) {
		f = frames[i]
		if (f !~ /^(runtime\.|sync\.|time\.|context\.|internal\/)/) return f
	}
	return n > 0 ? frames[n] : "?" # all runtime: the goroutine's own function
}
function flush(    key) {
	if (kind == "") return
	if (kind == "wait") {
		wait[gid] = site(ts, nts)
	} else if (kind == "wake") {
		key = "woken: " ((gid in wait) ? wait[gid] : "(waiting since before the trace)")
		count[key]++
	} else if (kind == "new") {
		key = "new: " (nts > 0 ? ts[1] : "?") " by " site(st, nst)
		count[key]++
	}
	kind = ""
}
BEGIN { t0 = -1; block = "" }
/^M=/ {
	flush()
	if (match($0, /Time=[0-9]+/)) {
		t = substr($0, RSTART + 5, RLENGTH - 5) + 0
		if (t0 < 0) t0 = t
	}
	nts = 0; nst = 0; block = ""
	if ($0 !~ / StateTransition /) next
	if (!match($0, /GoID=[0-9]+/)) next
	gid = substr($0, RSTART + 5, RLENGTH - 5)
	inwin = (t - t0) / 1e9 >= FROM && (t - t0) / 1e9 < TO
	if ($0 ~ /Running->Waiting/) kind = "wait"
	else if ($0 ~ /Waiting->Runnable/ && inwin) kind = "wake"
	else if ($0 ~ /NotExist->Runnable/ && inwin) kind = "new"
	next
}
/^TransitionStack=/ { block = "ts"; next }
/^Stack=/ { block = "st"; next }
/^\t[^\t]/ {
	sub(/^\t/, ""); sub(/ @ 0x[0-9a-f]+$/, "")
	if (block == "ts") ts[++nts] = $0
	else if (block == "st") st[++nst] = $0
	next
}
END {
	flush()
	secs = TO - FROM
	for (k in count) printf "%7d  %7.1f/s  %s\n", count[k], count[k] / secs, k | "sort -rn"
}

package player

import "testing"

func TestTailTellsATracebacksLastWords(t *testing.T) {
	// A crash's fault carries the end of the program's standard error:
	// a Python traceback's place, line and error, not the markers that
	// Python 3.11 draws under the line.
	var tl tail
	tl.Write([]byte("Traceback (most recent call last):\n  File \"/tmp/bot.py\", line 12, in <module>\n    d[\"no_such_key\"]\n    ~^^^^^^^^^^^^^^^\nKeyError: 'no_such_key'\n\n"))
	want := `File "/tmp/bot.py", line 12, in <module> / d["no_such_key"] / KeyError: 'no_such_key'`
	if got := tl.lastLines(3, 300); got != want {
		t.Errorf("lastLines = %q; want %q", got, want)
	}
	if got := tl.lastLines(3, 20); got != "…Error: 'no_such_key'" {
		t.Errorf("lastLines at 20 bytes = %q; want its last 20 bytes", got)
	}
}

func TestTailTellsAStackTracesError(t *testing.T) {
	// node ends an uncaught error with its frames, one a line, and its
	// version: the last three lines were frames deep in node and the
	// version, and the error was not among them. The error's line, the
	// error and its first frame are told, as a Python traceback's are.
	var tl tail
	tl.Write([]byte(`/tmp/bot.js:13
    if (n === 7) { throw new Error('boom at ' + msg.id); }
                   ^

Error: boom at 41
    at Interface.<anonymous> (/tmp/bot.js:13:26)
    at Interface.emit (node:events:524:28)
    at [_onLine] [as _onLine] (node:internal/readline/interface:419:12)
    at Readable.push (node:internal/streams/readable:392:5)
    at Pipe.onStreamRead (node:internal/stream_base_commons:191:23)

Node.js v20.20.2
`))
	want := `if (n === 7) { throw new Error('boom at ' + msg.id); } / Error: boom at 41 / at Interface.<anonymous> (/tmp/bot.js:13:26)`
	if got := tl.lastLines(3, 300); got != want {
		t.Errorf("lastLines = %q; want %q", got, want)
	}
	// Java's, after a tab.
	var java tail
	java.Write([]byte("Exception in thread \"main\" java.lang.IllegalStateException: no move\n\tat Bot.decide(Bot.java:40)\n\tat Bot.main(Bot.java:12)\n"))
	want = `Exception in thread "main" java.lang.IllegalStateException: no move / at Bot.decide(Bot.java:40)`
	if got := java.lastLines(3, 300); got != want {
		t.Errorf("lastLines = %q; want %q", got, want)
	}
	// Lines that are all frames, or words of the bot's own, stay as they
	// are.
	var own tail
	own.Write([]byte("at turn 3 I chose conquer\nat turn 4 I chose adapt\n"))
	if got := own.lastLines(3, 300); got != "at turn 3 I chose conquer / at turn 4 I chose adapt" {
		t.Errorf("lastLines = %q; want both lines", got)
	}
}

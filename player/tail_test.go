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

package player

import "testing"

func FuzzParseLimits(f *testing.F) {
	for _, s := range []string{"as=4GiB,cpu=10m,nproc=256,fsize=1GiB", "none", "cpu=1s", "as=1K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLimits(s)
		if err != nil {
			return
		}
		if back, err := ParseLimits(l.String()); err != nil || back != l {
			t.Errorf("%q: %+v writes as %q, which reads back as %+v, %v", s, l, l.String(), back, err)
		}
	})
}

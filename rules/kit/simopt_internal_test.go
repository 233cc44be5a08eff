package kit

import (
	"fmt"
	"sync"
	"testing"
)

// TestSimOptShared: moves that give the same option share one map, and
// no more than maxSimOpts are kept, however many workers ask at once.
func TestSimOptShared(t *testing.T) {
	a, b := simOpt("with", "fist"), simOpt("with", "fist")
	if fmt.Sprintf("%p", a) != fmt.Sprintf("%p", b) || a["with"] != "fist" || len(a) != 1 {
		t.Fatalf("simOpt(with, fist) gave %v and %v, not one shared map", a, b)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range maxSimOpts {
				if m := simOpt("k", fmt.Sprint(i, w%2)); m["k"] != fmt.Sprint(i, w%2) {
					t.Errorf("simOpt(k, %d %d) = %v", i, w%2, m)
					return
				}
			}
		})
	}
	wg.Wait()
	n := 0
	simOpts.Range(func(any, any) bool { n++; return true })
	if n > maxSimOpts || int(simOptsN.Load()) != n {
		t.Errorf("%d option maps kept, counted %d; at most maxSimOpts = %d", n, simOptsN.Load(), maxSimOpts)
	}
}

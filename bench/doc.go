// Package bench compares fray's dice with peer libraries. It is a module of
// its own so that the peers never enter fray's dependencies; its
// benchmarks are run by hand:
//
//	cd bench && go test -run XXX -bench . -count 10 | tee new.txt
//	benchstat new.txt
package bench

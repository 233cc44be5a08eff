module fray/bench

go 1.26.0

replace fray => ../

require (
	fray v0.0.0-00010101000000-000000000000
	github.com/justinian/dice v1.0.3
)

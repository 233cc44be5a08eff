package inmem_test

import (
	"testing"

	"fray"
	"fray/inmem"
	"fray/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) fray.Store { return inmem.New() })
}

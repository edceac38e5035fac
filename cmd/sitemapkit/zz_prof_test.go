package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	args := strings.Fields(os.Getenv("ZZARGS"))
	if len(args) == 0 {
		t.Skip()
	}
	for range 3 {
		run(context.Background(), args, nil, io.Discard, io.Discard)
	}
}

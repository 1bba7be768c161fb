package main

import (
	"context"
	"errors"
	"io"
)

func demo(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("demo: not available in this build")
}

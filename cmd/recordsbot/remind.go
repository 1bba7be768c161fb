package main

import (
	"context"
	"errors"
	"io"
)

func remind(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	return errors.New("remind: not available in this build")
}

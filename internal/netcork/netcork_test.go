package netcork_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/recordsbot/recordsbot/internal/netcork"
)

func TestWithoutATCPConnectionNothingHappens(t *testing.T) {
	c := netcork.From(context.Background())
	require.Nil(t, c)
	c.Cork()
	c.Uncork()
}

package retry_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/retry"
)

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, retry.Sleep(ctx, time.Hour), context.Canceled, "a cancelled context stops the wait at once")
	require.NoError(t, retry.Sleep(context.Background(), time.Nanosecond))
	require.NoError(t, retry.Sleep(context.Background(), 0))
}

package multiset_test

import (
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

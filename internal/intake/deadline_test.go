package intake

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestAnswerDeadlineIsOneWhicheverWaySet: once the body is in, the read
// deadline is moved to the answer's end whether it is set through
// http.ResponseController or on the connection (ConnContext), so on both
// net/http's watch for a closed connection ends there, and with it the
// request's context, instead of on one of them only.
func TestAnswerDeadlineIsOneWhicheverWaySet(t *testing.T) {
	type row struct {
		reason string
		conn   bool // ConnContext
	}
	testutil.Run(t, []row{
		{reason: "deadlines through ResponseController"},
		{reason: "deadlines on the connection", conn: true},
	}, func(t *testing.T, tc row) {
		const end = 100 * time.Millisecond
		g := New(Config{WriteTimeout: end})
		ended := make(chan bool, 1)
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, release, f := g.ReadBody(w, r)
			if f != nil {
				t.Error(f.Err)
				ended <- false
				return
			}
			defer release()
			select {
			case <-r.Context().Done():
				ended <- true
			case <-time.After(20 * end):
				ended <- false
			}
		}))
		if tc.conn {
			srv.Config.ConnContext = ConnContext
		}
		srv.Start()
		defer srv.Close()
		go func() {
			if res, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(`{}`)); err == nil {
				res.Body.Close()
			}
		}()
		if !<-ended {
			t.Errorf("the request's context did not end with the answer's deadline")
		}
	})
}

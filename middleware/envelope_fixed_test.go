package middleware

import (
	"math/rand/v2"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// AppendTimestamp writes what the layout does, for any instant.
func TestAppendTimestamp(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 25, 22, 0, 0, 999, time.FixedZone("x", -7*3600)),
		time.Now(),
	}
	for range 10000 {
		times = append(times, time.Unix(rng.Int64N(400*365*86400)-100*365*86400, rng.Int64N(1e9)).In(time.FixedZone("y", rng.IntN(48*1800)-24*1800)))
	}
	for _, tm := range times {
		want := tm.UTC().Format(timestampLayout)
		if got := string(AppendTimestamp(nil, tm)); got != want {
			t.Fatalf("AppendTimestamp(%v) = %q, want %q", tm, got, want)
		}
		if got := Timestamp(tm); got != want {
			t.Fatalf("Timestamp(%v) = %q, want %q", tm, got, want)
		}
	}
}

// A fixed envelope answers byte for byte as Respond does with the same
// status, message and data: the same fields, order, escaping and
// timestamp format, the same status and Content-Type.
func TestFixedEnvelopeMatchesRespond(t *testing.T) {
	ts := regexp.MustCompile(`"timestamp":"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)"}$`)
	for _, tt := range []struct {
		status  int
		message string
		data    any
	}{
		{http.StatusOK, "ok", struct {
			Result bool `json:"result"`
		}{true}},
		{http.StatusOK, "ok", struct {
			Result bool `json:"result"`
		}{false}},
		{http.StatusCreated, `<"quoted" & 'escaped'>` + "\u2028", gin.H{"role": "é<b>"}},
		{http.StatusOK, "", nil},
	} {
		fixed := MustFixedEnvelope(tt.status, tt.message, tt.data)
		r := gin.New()
		r.GET("/respond", func(c *gin.Context) { Respond(c, tt.status, tt.message, tt.data) })
		r.GET("/fixed", fixed.Respond)
		want := performRequest(r, http.MethodGet, "/respond", nil)
		got := performRequest(r, http.MethodGet, "/fixed", nil)
		if got.Code != want.Code || got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
			t.Errorf("%v: status %d, %q; Respond: %d, %q", tt.data, got.Code, got.Header().Get("Content-Type"), want.Code, want.Header().Get("Content-Type"))
		}
		gm, wm := ts.FindStringSubmatchIndex(got.Body.String()), ts.FindStringSubmatchIndex(want.Body.String())
		if gm == nil || wm == nil {
			t.Fatalf("no timestamp at the end:\n fixed   %s\n Respond %s", got.Body, want.Body)
		}
		assertTimestamp(t, got.Body.String()[gm[2]:gm[3]])
		if g, w := got.Body.String()[:gm[2]], want.Body.String()[:wm[2]]; g != w {
			t.Errorf("body before the timestamp:\n fixed   %s\n Respond %s", g, w)
		}
	}
}

func BenchmarkFixedEnvelope(b *testing.B) {
	gin.SetMode(gin.ReleaseMode)
	e := MustFixedEnvelope(http.StatusOK, "ok", gin.H{"result": true})
	r := gin.New()
	r.GET("/fixed", e.Respond)
	r.GET("/respond", func(c *gin.Context) { Respond(c, http.StatusOK, "ok", gin.H{"result": true}) })
	for _, path := range []string{"/fixed", "/respond"} {
		b.Run(path[1:], func(b *testing.B) {
			req, _ := http.NewRequest(http.MethodGet, path, nil)
			w := &nullWriter{h: http.Header{}}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.ServeHTTP(w, req)
			}
		})
	}
}

type nullWriter struct{ h http.Header }

func (w *nullWriter) Header() http.Header         { return w.h }
func (w *nullWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nullWriter) WriteHeader(int)             {}

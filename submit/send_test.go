package submit

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemapkit/internal/googletest"
)

func TestNewKey(t *testing.T) {
	k := NewKey()
	if len(k) != 32 || !ValidKey(k) || strings.ToLower(k) != k || NewKey() == k {
		t.Errorf("key %q", k)
	}
	for _, bad := range []string{"short", strings.Repeat("a", 129), "has space 123", "ünïcode123"} {
		if ValidKey(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestBatches(t *testing.T) {
	var urls []string
	for i := range 25001 {
		urls = append(urls, "https://www.example.com/p/"+strconv.Itoa(i))
	}
	urls = append(urls, "https://shop.example.com/a", "http://www.example.com/plain")
	got := Batches(urls)
	var sizes []string
	for _, b := range got {
		sizes = append(sizes, b.Host+":"+strconv.Itoa(len(b.URLs)))
	}
	want := "www.example.com:10000 www.example.com:10000 www.example.com:5002 shop.example.com:1"
	if strings.Join(sizes, " ") != want {
		t.Errorf("batches %v, want %s", sizes, want)
	}
}

// indexNowServer records the bodies posted to it and answers with the
// statuses given, in turn (the last one after that).
type indexNowServer struct {
	mu       sync.Mutex
	statuses []int
	headers  map[int]string // Retry-After for a status
	bodies   []indexNowBody
}

func (s *indexNowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		http.Error(w, "want a JSON POST", http.StatusBadRequest)
		return
	}
	var b indexNowBody
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil || b.Host == "" || !ValidKey(b.Key) || len(b.URLList) == 0 || len(b.URLList) > MaxIndexNowURLs {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	s.bodies = append(s.bodies, b)
	status := s.statuses[0]
	if len(s.statuses) > 1 {
		s.statuses = s.statuses[1:]
	}
	if ra := s.headers[status]; ra != "" {
		w.Header().Set("Retry-After", ra)
	}
	w.WriteHeader(status)
	io.WriteString(w, http.StatusText(status))
}

func TestIndexNow(t *testing.T) {
	ctx := context.Background()
	batch := Batch{Host: "www.example.com", URLs: []string{"https://www.example.com/a", "https://www.example.com/b"}}
	for _, c := range []struct {
		name     string
		statuses []int
		ok       bool
		retry    bool
		posts    int
		hint     string
	}{
		{"200", []int{200}, true, false, 1, ""},
		{"202", []int{202}, true, false, 1, ""},
		{"400", []int{400}, false, false, 1, "malformed"},
		{"403", []int{403}, false, false, 1, "key file is published and reachable"},
		{"422", []int{422}, false, false, 1, "do not belong to the host"},
		{"429 then 200", []int{429, 200}, true, false, 2, ""},
		{"503 three times", []int{503}, false, true, 3, "left pending"},
	} {
		srv := &indexNowServer{statuses: c.statuses, headers: map[int]string{429: "1"}}
		ts := httptest.NewServer(srv)
		key := NewKey()
		in := IndexNow{Endpoint: ts.URL + "/indexnow", Key: key, Client: ts.Client(), Retry: Retry{MaxWait: 2 * time.Second}}
		err := in.Send(ctx, batch)
		ts.Close()
		var e *Error
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (!errors.As(err, &e) || e.Retry != c.retry || !strings.Contains(err.Error(), c.hint)):
			t.Errorf("%s: %v, want an *Error (retry %v) saying %q", c.name, err, c.retry, c.hint)
		}
		if len(srv.bodies) != c.posts {
			t.Errorf("%s: %d posts, want %d", c.name, len(srv.bodies), c.posts)
		}
		if len(srv.bodies) > 0 {
			b := srv.bodies[0]
			if b.Host != "www.example.com" || b.Key != key || b.KeyLocation != "https://www.example.com/"+key+".txt" || len(b.URLList) != 2 {
				t.Errorf("%s: body %+v", c.name, b)
			}
		}
		if err != nil && strings.Contains(err.Error(), key) {
			t.Errorf("%s: the error shows the key: %v", c.name, err)
		}
	}
}

// TestIndexNowRetryAfterTooLong: a wait longer than MaxWait is not
// waited; nor is one past a Duration's range (10¹¹ seconds wrapped round
// to a wait of a few seconds, or none).
func TestIndexNowRetryAfterTooLong(t *testing.T) {
	for _, after := range []string{"3600", "99999999999", "9223372036854775807"} {
		srv := &indexNowServer{statuses: []int{429}, headers: map[int]string{429: after}}
		ts := httptest.NewServer(srv)
		in := IndexNow{Endpoint: ts.URL, Key: NewKey(), Client: ts.Client()}
		err := in.Send(context.Background(), Batch{Host: "www.example.com", URLs: []string{"https://www.example.com/"}})
		var e *Error
		if !errors.As(err, &e) || !e.Retry || len(srv.bodies) != 1 {
			t.Errorf("a Retry-After of %s s: %v after %d posts, want pending after 1", after, err, len(srv.bodies))
		}
		ts.Close()
	}
}

func TestWebSub(t *testing.T) {
	var got url.Values
	status := http.StatusNoContent
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			http.Error(w, "want a form POST", http.StatusBadRequest)
			return
		}
		r.ParseForm()
		got = r.PostForm
		w.WriteHeader(status)
	}))
	defer ts.Close()
	ws := WebSub{Client: ts.Client()}
	feed := "https://www.example.com/feed.xml"
	if err := ws.Publish(context.Background(), ts.URL+"/hub", feed); err != nil {
		t.Fatal(err)
	}
	if got.Get("hub.mode") != "publish" || got.Get("hub.url") != feed {
		t.Errorf("form %v", got)
	}
	status = http.StatusBadRequest
	if err := ws.Publish(context.Background(), ts.URL+"/hub", feed); err == nil || !strings.Contains(err.Error(), "topic") {
		t.Errorf("400: %v", err)
	}
}

func TestSearchConsole(t *testing.T) {
	ctx := context.Background()
	g := googletest.New(t)
	client, err := GoogleClient(ctx, googletest.Credentials(g.Key, g.Email), g.Token.URL+"/token")
	if err != nil {
		t.Fatal(err)
	}
	for _, property := range []string{"https://www.example.com/", "sc-domain:example.com"} {
		sc := SearchConsole{Endpoint: g.API.URL + "/webmasters/v3", Property: property, Client: client}
		if err := sc.Submit(ctx, "https://www.example.com/sitemap.xml"); err != nil {
			t.Fatalf("%s: %v (token endpoint: %s)", property, err, g.TokenErr)
		}
	}
	want := []string{
		"/webmasters/v3/sites/https:%2F%2Fwww.example.com%2F/sitemaps/https:%2F%2Fwww.example.com%2Fsitemap.xml",
		"/webmasters/v3/sites/sc-domain:example.com/sitemaps/https:%2F%2Fwww.example.com%2Fsitemap.xml",
	}
	if got := g.Puts(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("PUT paths\n%v\nwant\n%v", got, want)
	}
	g.Status = http.StatusForbidden
	sc := SearchConsole{Endpoint: g.API.URL + "/webmasters/v3/", Property: "https://www.example.com/", Client: client}
	err = sc.Submit(ctx, "https://www.example.com/sitemap.xml")
	if err == nil || !strings.Contains(err.Error(), "owner of the property") {
		t.Errorf("403: %v", err)
	}

	// A key the token endpoint does not know.
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	client, err = GoogleClient(ctx, googletest.Credentials(other, g.Email), g.Token.URL+"/token")
	if err != nil {
		t.Fatal(err)
	}
	sc.Client = client
	err = sc.Submit(ctx, "https://www.example.com/sitemap.xml")
	if err == nil || !strings.Contains(err.Error(), "refused the service account's key") {
		t.Errorf("an unknown key: %v", err)
	}
	if strings.Contains(err.Error(), "PRIVATE KEY") {
		t.Error("the error shows the key")
	}
	if _, err := GoogleClient(ctx, []byte(`{"type":"authorized_user"}`), ""); err == nil {
		t.Error("credentials that are not a service account's accepted")
	}
	if ScopeWebmasters != googletest.Scope {
		t.Error("the test server checks another scope")
	}
}

// TestSearchConsoleTokenEndpointDown: a token endpoint that answers 503
// or 429 says nothing of the key: the error may succeed later (Retry, so
// that the run sends the endpoint nothing more) and does not send the
// user to check a key that is fine. One that refuses the key (400) is
// asked once: it would refuse it again.
func TestSearchConsoleTokenEndpointDown(t *testing.T) {
	ctx := context.Background()
	g := googletest.New(t)
	for _, c := range []struct {
		status, asked int
		retry         bool
		says          string
	}{
		{http.StatusServiceUnavailable, 2, true, "left pending"},
		{http.StatusTooManyRequests, 2, true, "left pending"},
		{http.StatusBadRequest, 1, false, "check the JSON key"},
	} {
		var mu sync.Mutex
		asked := 0
		token := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked++
			mu.Unlock()
			http.Error(w, `{"error":"backend_error"}`, c.status)
		}))
		client, err := GoogleClient(ctx, googletest.Credentials(g.Key, g.Email), token.URL+"/token")
		if err != nil {
			t.Fatal(err)
		}
		sc := SearchConsole{Endpoint: g.API.URL + "/webmasters/v3/", Property: "sc-domain:example.com", Client: client, Retry: Retry{Attempts: 2}}
		err = sc.Submit(ctx, "https://www.example.com/sitemap.xml")
		token.Close()
		var e *Error
		if !errors.As(err, &e) || e.Retry != c.retry || e.Status != c.status || !strings.Contains(err.Error(), c.says) {
			t.Errorf("a token endpoint answering %d: %v; want an *Error (retry %v) saying %q", c.status, err, c.retry, c.says)
		}
		if asked != c.asked {
			t.Errorf("a token endpoint answering %d was asked %d times, want %d", c.status, asked, c.asked)
		}
	}
	if puts := g.Puts(); len(puts) != 0 {
		t.Errorf("the API was sent %v without a token", puts)
	}
}

// TestRedirectNotFollowedAsGet: a 301, 302 or 303 would turn a POST or
// PUT into a GET without its body, which a server may answer 200: the
// notification would count as sent and never have been made. Each channel
// says where it was redirected instead; a 307 (same method, same body) is
// followed.
func TestRedirectNotFollowedAsGet(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var arrived []string // method and path of each request at the new place
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, ok := strings.CutPrefix(r.URL.Path, "/moved/"); ok {
			n, _ := strconv.Atoi(code[:3])
			http.Redirect(w, r, "/new"+code[3:], n)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		arrived = append(arrived, r.Method+" "+r.URL.Path+" "+strconv.Itoa(len(body)))
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer ts.Close()
	batch := Batch{Host: "www.example.com", URLs: []string{"https://www.example.com/a"}}
	for _, code := range []string{"301", "302", "303"} {
		in := IndexNow{Endpoint: ts.URL + "/moved/" + code + "/indexnow", Key: NewKey(), Client: ts.Client()}
		ws := WebSub{Client: ts.Client()}
		sc := SearchConsole{Endpoint: ts.URL + "/moved/" + code + "/webmasters/v3/", Property: "sc-domain:example.com", Client: ts.Client()}
		for name, err := range map[string]error{
			"indexnow":       in.Send(ctx, batch),
			"websub":         ws.Publish(ctx, ts.URL+"/moved/"+code+"/hub", "https://www.example.com/feed.xml"),
			"search-console": sc.Submit(ctx, "https://www.example.com/sitemap.xml"),
		} {
			if err == nil || !strings.Contains(err.Error(), "redirected to "+ts.URL+"/new/") {
				t.Errorf("%s, %s: %v; want an error naming where it was redirected", name, code, err)
			}
		}
	}
	if len(arrived) != 0 {
		t.Errorf("requests arrived after a method-changing redirect: %v", arrived)
	}
	in := IndexNow{Endpoint: ts.URL + "/moved/307/indexnow", Key: NewKey(), Client: ts.Client()}
	if err := in.Send(ctx, batch); err != nil || len(arrived) != 1 || !strings.HasPrefix(arrived[0], "POST /new/indexnow ") || strings.HasSuffix(arrived[0], " 0") {
		t.Errorf("a 307: %v, arrived %v; want the POST with its body at the new place", err, arrived)
	}
}

// TestIndexNowAnswerQuotesKey: an endpoint's refusal that quotes the key
// file's URL does not put the key in the error (shown, and kept in the
// state's outbox).
func TestIndexNowAnswerQuotesKey(t *testing.T) {
	key := NewKey()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "key "+key+" not found at https://www.example.com/"+key+".txt", http.StatusForbidden)
	}))
	defer ts.Close()
	in := IndexNow{Endpoint: ts.URL, Key: key, Client: ts.Client()}
	err := in.Send(context.Background(), Batch{Host: "www.example.com", URLs: []string{"https://www.example.com/"}})
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "/KEY.txt") {
		t.Errorf("a 403 quoting the key: %v", err)
	}
}

package submit

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
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

func TestIndexNowRetryAfterTooLong(t *testing.T) {
	srv := &indexNowServer{statuses: []int{429}, headers: map[int]string{429: "3600"}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	in := IndexNow{Endpoint: ts.URL, Key: NewKey(), Client: ts.Client()}
	err := in.Send(context.Background(), Batch{Host: "www.example.com", URLs: []string{"https://www.example.com/"}})
	var e *Error
	if !errors.As(err, &e) || !e.Retry || len(srv.bodies) != 1 {
		t.Errorf("a Retry-After of an hour: %v after %d posts, want pending after 1", err, len(srv.bodies))
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

// googleServers are a token endpoint that checks the JWT bearer assertion
// with the test key's public half, and a Search Console API that checks
// the bearer token and the path.
type googleServers struct {
	key      *rsa.PrivateKey
	email    string
	token    *httptest.Server
	api      *httptest.Server
	status   int // the API's answer
	puts     []string
	tokenErr string
}

func newGoogleServers(t *testing.T) *googleServers {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	g := &googleServers{key: key, email: "sitemapkit@example-project.iam.gserviceaccount.com", status: http.StatusNoContent}
	g.token = httptest.NewServer(http.HandlerFunc(g.serveToken))
	g.api = httptest.NewServer(http.HandlerFunc(g.serveAPI))
	t.Cleanup(func() { g.token.Close(); g.api.Close() })
	return g
}

func (g *googleServers) credentials() []byte {
	der, _ := x509.MarshalPKCS8PrivateKey(g.key)
	b, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "example-project", "private_key_id": "k1",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": g.email, "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
	})
	return b
}

func (g *googleServers) serveToken(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	fail := func(msg string) {
		g.tokenErr = msg
		http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
	}
	if r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		fail("grant_type " + r.PostForm.Get("grant_type"))
		return
	}
	parts := strings.Split(r.PostForm.Get("assertion"), ".")
	if len(parts) != 3 {
		fail("not a JWT")
		return
	}
	var header struct{ Alg, Typ, Kid string }
	var claims struct {
		Iss, Scope, Aud string
		Exp, Iat        int64
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	json.Unmarshal(hb, &header)
	json.Unmarshal(cb, &claims)
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	switch {
	case header.Alg != "RS256":
		fail("alg " + header.Alg)
	case rsa.VerifyPKCS1v15(&g.key.PublicKey, crypto.SHA256, sum[:], sig) != nil:
		fail("bad signature")
	case claims.Iss != g.email || claims.Scope != ScopeWebmasters || claims.Aud != g.token.URL+"/token":
		fail("claims " + string(cb))
	case claims.Exp <= time.Now().Unix():
		fail("expired")
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"ya29.test-token","token_type":"Bearer","expires_in":3600}`)
	}
}

func (g *googleServers) serveAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPut || r.Header.Get("Authorization") != "Bearer ya29.test-token" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	g.puts = append(g.puts, r.URL.EscapedPath())
	w.WriteHeader(g.status)
}

func TestSearchConsole(t *testing.T) {
	ctx := context.Background()
	g := newGoogleServers(t)
	client, err := GoogleClient(ctx, g.credentials(), g.token.URL+"/token")
	if err != nil {
		t.Fatal(err)
	}
	for _, property := range []string{"https://www.example.com/", "sc-domain:example.com"} {
		sc := SearchConsole{Endpoint: g.api.URL + "/webmasters/v3", Property: property, Client: client}
		if err := sc.Submit(ctx, "https://www.example.com/sitemap.xml"); err != nil {
			t.Fatalf("%s: %v (token endpoint: %s)", property, err, g.tokenErr)
		}
	}
	want := []string{
		"/webmasters/v3/sites/https:%2F%2Fwww.example.com%2F/sitemaps/https:%2F%2Fwww.example.com%2Fsitemap.xml",
		"/webmasters/v3/sites/sc-domain:example.com/sitemaps/https:%2F%2Fwww.example.com%2Fsitemap.xml",
	}
	if strings.Join(g.puts, " ") != strings.Join(want, " ") {
		t.Errorf("PUT paths\n%v\nwant\n%v", g.puts, want)
	}
	g.status = http.StatusForbidden
	sc := SearchConsole{Endpoint: g.api.URL + "/webmasters/v3/", Property: "https://www.example.com/", Client: client}
	err = sc.Submit(ctx, "https://www.example.com/sitemap.xml")
	if err == nil || !strings.Contains(err.Error(), "owner of the property") {
		t.Errorf("403: %v", err)
	}

	// A key the token endpoint does not know.
	other, _ := rsa.GenerateKey(rand.Reader, 2048)
	bad := &googleServers{key: other, email: g.email}
	client, err = GoogleClient(ctx, bad.credentials(), g.token.URL+"/token")
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
}

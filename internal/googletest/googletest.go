// Package googletest is, for tests, Google's OAuth token endpoint and
// Search Console API on 127.0.0.1: the token endpoint checks the JWT
// bearer assertion (RS256 with the test key's public half, iss, scope,
// aud, exp) and the API the bearer token it gave, and records each PUT.
package googletest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Scope is the scope the token endpoint requires.
const Scope = "https://www.googleapis.com/auth/webmasters"

// Servers are the token endpoint (Token.URL + "/token") and the API
// (API.URL + "/webmasters/v3/").
type Servers struct {
	Key    *rsa.PrivateKey
	Email  string
	Token  *httptest.Server
	API    *httptest.Server
	Status int // the API's answer; 204 by default

	mu       sync.Mutex
	puts     []string
	TokenErr string // why the token endpoint last refused
}

// New starts the servers with a new key; t closes them.
func New(t testing.TB) *Servers {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	g := &Servers{Key: key, Email: "sitemapkit@example-project.iam.gserviceaccount.com", Status: http.StatusNoContent}
	g.Token = httptest.NewServer(http.HandlerFunc(g.serveToken))
	g.API = httptest.NewServer(http.HandlerFunc(g.serveAPI))
	t.Cleanup(func() { g.Token.Close(); g.API.Close() })
	return g
}

// Credentials returns a service account's JSON key for key and email, as
// Google Cloud's console downloads it.
func Credentials(key *rsa.PrivateKey, email string) []byte {
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	b, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "example-project", "private_key_id": "k1",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": email, "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token",
	})
	return b
}

// Puts returns the escaped paths of the PUTs the API accepted.
func (g *Servers) Puts() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.puts...)
}

func (g *Servers) serveToken(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	fail := func(msg string) {
		g.mu.Lock()
		g.TokenErr = msg
		g.mu.Unlock()
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
	case rsa.VerifyPKCS1v15(&g.Key.PublicKey, crypto.SHA256, sum[:], sig) != nil:
		fail("bad signature")
	case claims.Iss != g.Email || claims.Scope != Scope || claims.Aud != g.Token.URL+"/token":
		fail("claims " + string(cb))
	case claims.Exp <= time.Now().Unix():
		fail("expired")
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"ya29.test-token","token_type":"Bearer","expires_in":3600}`)
	}
}

func (g *Servers) serveAPI(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPut || r.Header.Get("Authorization") != "Bearer ya29.test-token" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	g.mu.Lock()
	g.puts = append(g.puts, r.URL.EscapedPath())
	status := g.Status
	g.mu.Unlock()
	w.WriteHeader(status)
}

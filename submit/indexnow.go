package submit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// DefaultIndexNow is the IndexNow endpoint used unless another is
// configured: the shared one, whose submissions every participating
// engine receives (Bing, Yandex, Seznam, Naver, Yep, Amazon; not Google).
const DefaultIndexNow = "https://api.indexnow.org/indexnow"

// MaxIndexNowURLs is the most URLs one IndexNow request may carry.
const MaxIndexNowURLs = 10000

// NewKey returns a new IndexNow key: 32 lowercase hex digits from
// crypto/rand, which both readings of the protocol accept (8 to 128 of
// [a-zA-Z0-9-], "hexadecimal").
func NewKey() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand's contract since Go 1.24)
	return hex.EncodeToString(b)
}

// ValidKey reports whether key is an IndexNow key: 8 to 128 characters of
// [a-zA-Z0-9-].
func ValidKey(key string) bool {
	if len(key) < 8 || len(key) > 128 {
		return false
	}
	for _, c := range []byte(key) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// IndexNow posts changed URLs to an IndexNow endpoint.
type IndexNow struct {
	Endpoint string // DefaultIndexNow when empty
	Key      string
	// KeyLocation returns the URL of the key file for a host; nil: the
	// root of the host, https://host/KEY.txt (the location the protocol
	// recommends). Submit names the file where it publishes it.
	KeyLocation func(scheme, host string) string
	Client      *http.Client
	Retry       Retry
}

// indexNowBody is the JSON of one request.
type indexNowBody struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation"`
	URLList     []string `json:"urlList"`
}

// Batch is the URLs of one IndexNow request: one host, at most
// MaxIndexNowURLs.
type Batch struct {
	Host string
	URLs []string
}

// Batches splits urls into requests: by host (each host proves its own
// key), in order of first appearance, MaxIndexNowURLs at most each.
func Batches(urls []string) []Batch {
	var out []Batch
	index := map[string]int{} // host → its last batch
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || p.Host == "" {
			continue
		}
		i, ok := index[p.Host]
		if !ok || len(out[i].URLs) == MaxIndexNowURLs {
			out = append(out, Batch{Host: p.Host})
			i = len(out) - 1
			index[p.Host] = i
		}
		out[i].URLs = append(out[i].URLs, u)
	}
	return out
}

var indexNowHints = map[int]string{
	http.StatusBadRequest:          "the request is malformed (a bug: please report it)",
	http.StatusForbidden:           "the key was not accepted: check that the key file is published and reachable at its URL (keyLocation) and holds the key alone",
	http.StatusUnprocessableEntity: "the URLs do not belong to the host, or the key does not match the protocol's form",
}

// Send posts one batch. 200 and 202 are success.
func (c *IndexNow) Send(ctx context.Context, b Batch) error {
	endpoint := c.Endpoint
	if endpoint == "" {
		endpoint = DefaultIndexNow
	}
	scheme := "https"
	if p, err := url.Parse(b.URLs[0]); err == nil && p.Scheme != "" {
		scheme = p.Scheme
	}
	loc := scheme + "://" + b.Host + "/" + c.Key + ".txt"
	if c.KeyLocation != nil {
		loc = c.KeyLocation(scheme, b.Host)
	}
	body, err := json.Marshal(indexNowBody{Host: b.Host, Key: c.Key, KeyLocation: loc, URLList: slices.Clip(b.URLs)})
	if err != nil {
		return fmt.Errorf("indexnow: %w", err)
	}
	status, answer, err := send(ctx, c.Client, c.Retry, postBody(ctx, http.MethodPost, endpoint, "application/json; charset=utf-8", body))
	if err == nil && (status == http.StatusOK || status == http.StatusAccepted) {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// An answer may quote the key, or the key file's URL: it is not shown.
	if c.Key != "" {
		answer = strings.ReplaceAll(answer, c.Key, "KEY")
	}
	return answerError("indexnow", endpoint, status, answer, err, indexNowHints)
}

package submit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sitemapkit/sitemapkit/internal/fetch"
)

// An Error is a request a channel could not get accepted.
type Error struct {
	Channel string // "indexnow", "websub", "search-console"
	Target  string // the endpoint, hub or sitemap the request was for
	Status  int    // the HTTP status; 0 when there was no answer
	// Retry says that the same request may succeed later (429, 5xx, no
	// answer): the caller keeps it pending.
	Retry bool
	Msg   string // what went wrong, and what to check
	Err   error  // the underlying error, if any
}

func (e *Error) Error() string {
	s := e.Channel + ": " + redact(e.Target) + ": "
	if e.Status != 0 {
		s += strconv.Itoa(e.Status) + " " + http.StatusText(e.Status) + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Retry bounds how long a request is tried again when the server says to
// wait (429 with Retry-After, 5xx) or does not answer.
type Retry struct {
	// Attempts is how many times a request is sent at most. Default 3.
	Attempts int
	// MaxWait is the longest wait between two attempts; a Retry-After
	// asking for longer ends the tries (the request stays pending).
	// Default 60 s.
	MaxWait time.Duration
}

func (r Retry) attempts() int {
	if r.Attempts <= 0 {
		return 3
	}
	return r.Attempts
}

func (r Retry) maxWait() time.Duration {
	if r.MaxWait <= 0 {
		return time.Minute
	}
	return r.MaxWait
}

// Timeout bounds one request, answer included, when a channel is given no
// client of its own: a server that never answers must not hold a run.
const Timeout = 30 * time.Second

var defaultClient = &http.Client{Timeout: Timeout}

// UserAgent names sitemapkit to the servers it notifies; a command sets
// it with its version.
var UserAgent = fetch.UserAgent("")

// maxAnswer is the most of an answer's body read for its message.
const maxAnswer = 4 << 10

// send sends the request newReq makes, trying again as r allows, and
// returns the status and the start of the body of the last answer. A
// network error after the last attempt is returned as it is.
func send(ctx context.Context, client *http.Client, r Retry, newReq func() (*http.Request, error)) (status int, body string, err error) {
	if client == nil {
		client = defaultClient
	}
	// A 301, 302 or 303 turns a POST or PUT into a GET without its body,
	// which a server may well answer 200 to: the notification would be
	// marked sent and never made. Such a redirect is not followed; its
	// answer says where to send instead.
	c, check := *client, client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.Method != via[0].Method {
			return http.ErrUseLastResponse
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	client = &c
	wait := time.Second
	for attempt := 1; ; attempt++ {
		req, err := newReq()
		if err != nil {
			return 0, "", err
		}
		resp, err := client.Do(req.WithContext(ctx))
		retryAfter := time.Duration(0)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			status, body = resp.StatusCode, strings.TrimSpace(string(b))
			if status >= 300 && status < 400 {
				body = "" // the Location, for answerError to show
				if loc, err := resp.Location(); err == nil {
					body = loc.String()
				}
			}
			if status != http.StatusTooManyRequests && status < 500 {
				return status, body, nil
			}
			retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"))
		} else if ctx.Err() != nil {
			return 0, "", ctx.Err()
		} else if re := (*oauth2.RetrieveError)(nil); asRetrieve(err, &re) && re.Response.StatusCode < 500 && re.Response.StatusCode != http.StatusTooManyRequests {
			// The token endpoint refused the credentials: so it will
			// again, now.
			return 0, "", err
		}
		if attempt >= r.attempts() {
			return status, body, err
		}
		if retryAfter > 0 {
			wait = retryAfter
		}
		if wait > r.maxWait() {
			return status, body, err // asked to wait longer than allowed: later
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return 0, "", ctx.Err()
		}
		wait *= 2
	}
}

// redact returns target, a URL, with the password of its user info
// replaced (https://user:xxxxx@hub.example/): a hub, an endpoint or a ping
// may carry its credentials there, and they are shown nowhere.
func redact(target string) string {
	if u, err := url.Parse(target); err == nil && u.User != nil {
		return u.Redacted()
	}
	return target
}

// parseRetryAfter reads a Retry-After header: seconds, or an HTTP date.
func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 {
		// Past a Duration's range (292 years), n seconds would wrap
		// round, to a short wait or a negative one.
		return time.Duration(min(n, math.MaxInt64/int64(time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

// answerError words a status that is not success for channel, with what
// to check for the statuses a user can fix.
func answerError(channel, target string, status int, body string, err error, hints map[int]string) error {
	e := &Error{Channel: channel, Target: target, Status: status, Err: err}
	switch {
	case err != nil && status == 0:
		e.Retry, e.Msg = true, "no answer"
		var ue interface{ Timeout() bool }
		if errors.As(err, &ue) && ue.Timeout() {
			e.Msg = "timed out"
		}
	case status == http.StatusTooManyRequests || status >= 500:
		e.Retry, e.Msg = true, "still refused after retries; left pending"
	case status >= 300 && status < 400 && body != "":
		// body is the Location (see send).
		e.Msg = "redirected to " + body + ", which would receive the request as a GET without its body: configure that URL instead"
		return e
	default:
		e.Msg = hints[status]
		if e.Msg == "" {
			e.Msg = "refused"
		}
	}
	if body != "" && len(body) < 300 {
		e.Msg += fmt.Sprintf(" (the server said: %q)", body)
	}
	return e
}

// postBody is a request body that can be sent again.
func postBody(ctx context.Context, method, target, contentType string, body []byte) func() (*http.Request, error) {
	return func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		req.Header.Set("User-Agent", UserAgent)
		return req, nil
	}
}

// asRetrieve finds an OAuth token endpoint's refusal in err.
func asRetrieve(err error, re **oauth2.RetrieveError) bool {
	return err != nil && errors.As(err, re) && (*re).Response != nil
}

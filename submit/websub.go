package submit

import (
	"context"
	"net/http"
	"net/url"
)

// WebSub tells a hub that a topic (the site's feed) changed.
type WebSub struct {
	Client *http.Client
	Retry  Retry
}

// Publish posts hub.mode=publish&hub.url=topic to hub, form-encoded, as
// the W3C Recommendation's note and Google's hub ask. Any 2xx is success
// (Google's hub answers 204).
func (w *WebSub) Publish(ctx context.Context, hub, topic string) error {
	form := url.Values{"hub.mode": {"publish"}, "hub.url": {topic}}
	status, answer, err := send(ctx, w.Client, w.Retry, postBody(ctx, http.MethodPost, hub, "application/x-www-form-urlencoded", []byte(form.Encode())))
	if err == nil && status >= 200 && status < 300 {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return answerError("websub", hub, status, answer, err, map[int]string{
		http.StatusBadRequest: "the hub refused the publish request: check that the feed's URL is the topic it knows",
		http.StatusNotFound:   "no hub at this URL",
	})
}

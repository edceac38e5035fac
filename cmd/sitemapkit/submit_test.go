package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/googletest"
)

// notifyServers are an IndexNow endpoint and a WebSub hub on 127.0.0.1
// that record what they are sent.
type notifyServers struct {
	mu       sync.Mutex
	status   int // IndexNow's answer
	indexnow []map[string]any
	hub      []string // hub.url of each publish
	in, hubs *httptest.Server
}

func newNotifyServers(t *testing.T) *notifyServers {
	n := &notifyServers{status: http.StatusOK}
	n.in = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		n.mu.Lock()
		defer n.mu.Unlock()
		n.indexnow = append(n.indexnow, body)
		w.WriteHeader(n.status)
	}))
	n.hubs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		n.mu.Lock()
		defer n.mu.Unlock()
		if r.PostForm.Get("hub.mode") != "publish" {
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		n.hub = append(n.hub, r.PostForm.Get("hub.url"))
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() { n.in.Close(); n.hubs.Close() })
	return n
}

// urls returns the URLs IndexNow was sent, in order, and forgets them.
func (n *notifyServers) take() (urls []string, hub []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, b := range n.indexnow {
		for _, u := range b["urlList"].([]any) {
			urls = append(urls, u.(string))
		}
	}
	hub = n.hub
	n.indexnow, n.hub = nil, nil
	return urls, hub
}

// TestSubmit runs the example of "Keeping lastmod true" with submit after
// each generate, against IndexNow, a WebSub hub and Search Console on
// 127.0.0.1: the baseline sends no URL; a run with no change sends no
// request; the week's edits send exactly the changed URLs, the feed to the
// hub and the index to Search Console; a failing IndexNow leaves them
// pending, and the next submit sends them once.
func TestSubmit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run edit.sh")
	}
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	out := filepath.Join(work, "out")
	n := newNotifyServers(t)
	g := googletest.New(t)
	creds := genWrite(t, work, "key.json", string(googletest.Credentials(g.Key, g.Email)))
	robots := genWrite(t, out[:len(out)-3], "robots.txt", "User-agent: *\r\nDisallow: /admin\r\n# the end")
	flags := []string{"--config", cfg, "--robots", robots, "--indexnow-endpoint", n.in.URL + "/indexnow", "--websub-hub", n.hubs.URL,
		"--search-console-property", "sc-domain:example.com", "--google-credentials", creds,
		"--search-console-endpoint", g.API.URL + "/webmasters/v3/", "--google-token-url", g.Token.URL + "/token"}
	submitRun := func(code int, extra ...string) genResult {
		t.Helper()
		r := genRun(t, "", append(append([]string{"submit"}, flags...), extra...)...)
		r.want(t, code)
		return r
	}

	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	r := submitRun(0)
	if urls, hub := n.take(); len(urls) != 0 || len(hub) != 0 {
		t.Errorf("baseline: IndexNow got %v, the hub %v; want nothing (no change yet, no feed)", urls, hub)
	}
	if puts := g.Puts(); len(puts) != 1 || !strings.HasSuffix(puts[0], "/sitemaps/https:%2F%2Fwww.example.com%2Fsitemap.xml") {
		t.Errorf("baseline: Search Console got %v, want the new index", puts)
	}
	got, _ := os.ReadFile(robots)
	if string(got) != "User-agent: *\r\nDisallow: /admin\r\n# the end\r\nSitemap: "+genBase+"sitemap.xml\r\n" {
		t.Errorf("robots.txt: %q", got)
	}
	if strings.Contains(r.stdout+r.stderr, "PRIVATE KEY") {
		t.Error("the output shows the credentials")
	}

	r = submitRun(0)
	if urls, hub := n.take(); len(urls) != 0 || len(hub) != 0 || len(g.Puts()) != 1 || !strings.Contains(r.stdout, "no request sent") {
		t.Errorf("nothing changed: IndexNow %v, hub %v, Search Console %d PUTs:\n%s", urls, hub, len(g.Puts()), r.stdout)
	}

	edit := exec.Command("sh", filepath.Join(work, "edit.sh"), filepath.Join(work, "site"))
	if msg, err := edit.CombinedOutput(); err != nil {
		t.Fatalf("edit.sh: %v\n%s", err, msg)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1768464000")
	r = genRun(t, "", append([]string{"generate", "--submit"}, flags...)...)
	r.want(t, 0)
	urls, hub := n.take()
	slices.Sort(urls)
	const page = genBase + "blog/post-"
	if want := []string{page + "02.html", page + "10.html", page + "11.html", page + "12.html"}; !slices.Equal(urls, want) {
		t.Errorf("IndexNow got %v, want the changed, added and removed %v", urls, want)
	}
	if len(hub) != 1 || hub[0] != genBase+"feed.xml" || len(g.Puts()) != 2 {
		t.Errorf("after the edits: hub %v, Search Console %d PUTs; want the feed, and the index again", hub, len(g.Puts()))
	}
	var key string
	for _, e := range mustReadDir(t, out) {
		if k, ok := strings.CutSuffix(e, ".txt"); ok && len(k) == 32 {
			key = k
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, key+".txt")); key == "" || string(b) != key {
		t.Errorf("no IndexNow key file in %s (%q)", out, key)
	}

	// IndexNow fails: the URLs stay pending, exit 1, and go out once the
	// server recovers.
	n.status = http.StatusForbidden
	os.WriteFile(filepath.Join(work, "site", "blog", "post-05.html"), []byte("<main>rewritten</main>"), 0o644)
	t.Setenv("SOURCE_DATE_EPOCH", "1768550400")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	r = submitRun(exitInputErrors)
	if !strings.Contains(r.stdout, "pending") || !strings.Contains(r.stdout, "key file") {
		t.Errorf("a 403: the summary does not say what is pending and why:\n%s", r.stdout)
	}
	n.take()
	n.status = http.StatusOK
	submitRun(0)
	if urls, _ := n.take(); !slices.Equal(urls, []string{page + "05.html"}) {
		t.Errorf("after recovery IndexNow got %v, want post 05 once", urls)
	}
	submitRun(0)
	if urls, _ := n.take(); len(urls) != 0 {
		t.Errorf("a third submit sent %v again", urls)
	}

	// --dry-run says what it would send and sends nothing.
	os.WriteFile(filepath.Join(work, "site", "blog", "post-06.html"), []byte("<main>rewritten too</main>"), 0o644)
	t.Setenv("SOURCE_DATE_EPOCH", "1768636800")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	r = submitRun(0, "--dry-run")
	if urls, hub := n.take(); len(urls) != 0 || len(hub) != 0 || !strings.Contains(r.stdout, "IndexNow: 1 URL of www.example.com") {
		t.Errorf("--dry-run sent %v %v, or said:\n%s", urls, hub, r.stdout)
	}
	submitRun(0)
	if urls, _ := n.take(); !slices.Equal(urls, []string{page + "06.html"}) {
		t.Errorf("the submit after the dry run sent %v, want post 06", urls)
	}

	// A notification left pending for a channel later turned off is held,
	// not an error of the runs that do not use it, and sent once it is on.
	n.status = http.StatusServiceUnavailable
	os.WriteFile(filepath.Join(work, "site", "blog", "post-07.html"), []byte("<main>seven</main>"), 0o644)
	t.Setenv("SOURCE_DATE_EPOCH", "1768723200")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	submitRun(exitInputErrors)
	n.take()
	r = submitRun(0, "--indexnow", "off")
	if !strings.Contains(r.stdout, "Held: 1 notification") {
		t.Errorf("--indexnow off with one pending:\n%s", r.stdout)
	}
	n.status = http.StatusOK
	submitRun(0)
	if urls, _ := n.take(); !slices.Equal(urls, []string{page + "07.html"}) {
		t.Errorf("once IndexNow is on again, it got %v, want post 07", urls)
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestSubmitUsage: submit without a state, with a bad key, or before any
// generate says what to do.
func TestSubmitUsage(t *testing.T) {
	work := t.TempDir()
	r := genRun(t, "", "submit", "--base", genBase, "--out", work)
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "needs --base, --out and --state") {
		t.Errorf("no state: %s", r.stderr)
	}
	r = genRun(t, "", "submit", "--base", genBase, "--out", filepath.Join(work, "out"), "--state", filepath.Join(work, "none.db"))
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "run generate --state") {
		t.Errorf("a state that does not exist: %s", r.stderr)
	}
	site := filepath.Join(work, "site")
	os.MkdirAll(site, 0o755)
	genWrite(t, site, "index.html", "<main>hi</main>")
	st := filepath.Join(work, "state.db")
	out := filepath.Join(work, "out")
	genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--state", st).want(t, 0)
	r = genRun(t, "", "submit", "--base", genBase, "--out", out, "--state", st, "--indexnow-key", "bad key!")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "--indexnow-key") {
		t.Errorf("a bad key: %s", r.stderr)
	}
	r = genRun(t, "", "generate", "--base", genBase, "--out", out, "--dir", site, "--submit")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "--submit needs --state") {
		t.Errorf("--submit without --state: %s", r.stderr)
	}
	// A state is its site's: submit of another base would put that
	// site's sitemap in this one's robots.txt and send this one's
	// changes as its own.
	robots := genWrite(t, out, "robots.txt", "User-agent: *\nDisallow:\n")
	r = genRun(t, "", "submit", "--base", "https://www2.example.com/", "--out", out, "--state", st, "--indexnow", "off")
	r.want(t, exitUsage)
	if !strings.Contains(r.stderr, "another site") || !strings.Contains(r.stderr, genBase) {
		t.Errorf("submit with another site's state: %s", r.stderr)
	}
	if b, err := os.ReadFile(robots); err != nil || string(b) != "User-agent: *\nDisallow:\n" {
		t.Errorf("robots.txt after a refused submit: %q, %v", b, err)
	}
}

// TestSubmitTooManyRequests: an IndexNow endpoint that still answers 429
// after the retries is not sent the other notifications pending for it in
// the same run (each would be refused the same way, after its own
// retries): they stay pending, and all go out once it accepts again.
func TestSubmitTooManyRequests(t *testing.T) {
	work, cfg, n, flags := indexNowSite(t)
	// Two runs, each with a change: two IndexNow notifications.
	for i, page := range []string{"post-05.html", "post-06.html"} {
		genWrite(t, filepath.Join(work, "site", "blog"), page, "<main>rewritten "+page+"</main>")
		t.Setenv("SOURCE_DATE_EPOCH", strconv.Itoa(1768550400+86400*i))
		genRun(t, "", "generate", "--config", cfg).want(t, 0)
	}
	n.take()
	n.status = http.StatusTooManyRequests
	r := genRun(t, "", flags...)
	r.want(t, exitInputErrors)
	n.mu.Lock()
	posts := len(n.indexnow)
	n.mu.Unlock()
	if posts != 3 {
		t.Errorf("an endpoint answering 429 was posted %d times, want 3 (one notification's attempts)\n%s", posts, r.stdout)
	}
	if !strings.Contains(r.stdout, "2 URLs pending") {
		t.Errorf("both notifications are not reported pending:\n%s", r.stdout)
	}
	n.take()
	n.status = http.StatusOK
	genRun(t, "", flags...).want(t, 0)
	urls, _ := n.take()
	slices.Sort(urls)
	if want := []string{genBase + "blog/post-05.html", genBase + "blog/post-06.html"}; !slices.Equal(urls, want) {
		t.Errorf("once the endpoint accepts again, IndexNow got %v, want %v", urls, want)
	}
}

// indexNowSite publishes the lastmod example and submits its baseline to
// an IndexNow endpoint on 127.0.0.1, n.in: it returns the example's folder,
// its config and the flags of a submit to n with IndexNow alone.
func indexNowSite(t *testing.T) (work, cfg string, n *notifyServers, flags []string) {
	work = t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg = filepath.Join(work, "sitemapkit.toml")
	n = newNotifyServers(t)
	flags = []string{"submit", "--config", cfg, "--robots", "none", "--indexnow-endpoint", n.in.URL + "/indexnow"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	genRun(t, "", flags...).want(t, 0)
	return work, cfg, n, flags
}

// TestSubmitKeyLocation: with --out served below the site's root, the
// key file is published there, and the IndexNow request names it there
// (it named https://host/KEY.txt, where there was none: every request was
// refused, and stayed pending); the set's URLs are all under that folder,
// the ones IndexNow takes for such a key. A --base with a path and no
// --public-url is such a folder too: --out is served at --base.
func TestSubmitKeyLocation(t *testing.T) {
	for _, c := range []struct{ name, base, public string }{
		{"public-url below the root", genBase, genBase + "docs/"},
		{"base below the root", genBase + "blog/", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			work := t.TempDir()
			out, list := filepath.Join(work, "out"), filepath.Join(work, "urls.txt")
			public := c.public
			set := []string{"--base", c.base, "--out", out, "--state", filepath.Join(work, "state.db")}
			if public == "" {
				public = c.base
			} else {
				set = append(set, "--public-url", public)
			}
			n := newNotifyServers(t)
			for _, pages := range [][]string{{"a", "b"}, {"a", "b", "c"}} {
				var b strings.Builder
				for _, p := range pages {
					b.WriteString(public + p + "\n")
				}
				if err := os.WriteFile(list, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				genRun(t, "", append([]string{"generate", "-q"}, append(set, list)...)...).want(t, 0)
				genRun(t, "", append([]string{"submit", "--robots", "none", "--indexnow-endpoint", n.in.URL + "/indexnow"}, set...)...).want(t, 0)
			}
			n.mu.Lock()
			defer n.mu.Unlock()
			if len(n.indexnow) != 1 {
				t.Fatalf("%d IndexNow requests, want 1 (the second run's)", len(n.indexnow))
			}
			key, _ := n.indexnow[0]["key"].(string)
			if got, want := n.indexnow[0]["keyLocation"], public+key+".txt"; got != want {
				t.Errorf("keyLocation %v, want %s", got, want)
			}
			if b, err := os.ReadFile(filepath.Join(out, key+".txt")); err != nil || string(b) != key {
				t.Errorf("key file in --out: %q, %v", b, err)
			}
		})
	}
}

// TestSubmitNewProperty: a Search Console property given later (another
// site's property, or the domain's for the URL prefix's) is told of each
// index once, though no index changed: it was told of none until one did.
func TestSubmitNewProperty(t *testing.T) {
	g, submitTo := searchConsoleSite(t)
	for i, c := range []struct {
		property string
		puts     int // in all, so far
	}{{"https://www.example.com/", 1}, {"https://www.example.com/", 1}, {"sc-domain:example.com", 2}, {"sc-domain:example.com", 2}} {
		submitTo(c.property).want(t, 0)
		if puts := g.Puts(); len(puts) != c.puts {
			t.Errorf("run %d, property %s: %d PUTs in all, want %d: %v", i+1, c.property, len(puts), c.puts, puts)
		}
	}
}

// searchConsoleSite publishes the lastmod example once, and returns Search
// Console on 127.0.0.1 and a submit of the set to a property of it, with
// Search Console alone.
func searchConsoleSite(t *testing.T) (*googletest.Servers, func(property string) genResult) {
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	g := googletest.New(t)
	creds := genWrite(t, work, "key.json", string(googletest.Credentials(g.Key, g.Email)))
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	return g, func(property string) genResult {
		return genRun(t, "", "submit", "--config", cfg, "--robots", "none", "--indexnow", "off",
			"--search-console-property", property, "--google-credentials", creds,
			"--search-console-endpoint", g.API.URL+"/webmasters/v3/", "--google-token-url", g.Token.URL+"/token")
	}
}

// TestSubmitPendingNotRepeated: a hub's publish or a Search Console
// submit that is still pending when the feed or the index changes again
// is not queued a second time: both requests name the file, not its
// version, so the next run would send the same request twice, one right
// after the other.
func TestSubmitPendingNotRepeated(t *testing.T) {
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	n := newNotifyServers(t)
	g := googletest.New(t)
	creds := genWrite(t, work, "key.json", string(googletest.Credentials(g.Key, g.Email)))
	var mu sync.Mutex
	hubStatus, publishes := http.StatusBadRequest, 0
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		publishes++
		w.WriteHeader(hubStatus)
	}))
	defer hub.Close()
	flags := []string{"submit", "--config", cfg, "--robots", "none", "--indexnow-endpoint", n.in.URL + "/indexnow", "--websub-hub", hub.URL,
		"--search-console-property", "sc-domain:example.com", "--google-credentials", creds,
		"--search-console-endpoint", g.API.URL + "/webmasters/v3/", "--google-token-url", g.Token.URL + "/token"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	g.Status = http.StatusBadRequest // refused, not retried: left pending
	genRun(t, "", flags...).want(t, exitInputErrors)
	for i, page := range []string{"post-05.html", "post-06.html"} {
		genWrite(t, filepath.Join(work, "site", "blog"), page, "<main>rewritten "+page+"</main>")
		t.Setenv("SOURCE_DATE_EPOCH", strconv.Itoa(1768550400+86400*i))
		genRun(t, "", "generate", "--config", cfg).want(t, 0)
		genRun(t, "", flags...).want(t, exitInputErrors)
	}
	mu.Lock()
	hubStatus, publishes = http.StatusNoContent, 0
	mu.Unlock()
	g.Status = http.StatusNoContent
	before := len(g.Puts())
	r := genRun(t, "", flags...)
	r.want(t, 0)
	mu.Lock()
	defer mu.Unlock()
	if puts := g.Puts()[before:]; publishes != 1 || len(puts) != 1 {
		t.Errorf("once accepted, the hub was sent %d publishes and Search Console %d PUTs, want 1 each: %v\n%s", publishes, len(puts), puts, r.stdout)
	}
}

// TestSubmitHidesPasswords: a hub or an IndexNow endpoint given with its
// credentials in the URL (https://user:password@hub.example/) is sent them,
// and they appear neither in the dry run's requests nor in the reasons a
// notification is pending.
func TestSubmitHidesPasswords(t *testing.T) {
	work := t.TempDir()
	copyTree(t, "../../examples/lastmod", work)
	cfg := filepath.Join(work, "sitemapkit.toml")
	const password = "s3cret-pass"
	var mu sync.Mutex
	var auth []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		mu.Lock()
		auth = append(auth, user+":"+pass)
		mu.Unlock()
		http.Error(w, "no", http.StatusBadRequest)
	}))
	defer ts.Close()
	withPassword := strings.Replace(ts.URL, "://", "://site:"+password+"@", 1)
	flags := []string{"submit", "--config", cfg, "--robots", "none", "--indexnow-endpoint", withPassword + "/indexnow", "--websub-hub", withPassword + "/hub"}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	genRun(t, "", flags...).want(t, 0)
	genWrite(t, filepath.Join(work, "site", "blog"), "post-05.html", "<main>rewritten</main>")
	t.Setenv("SOURCE_DATE_EPOCH", "1768550400")
	genRun(t, "", "generate", "--config", cfg).want(t, 0)
	dry := genRun(t, "", append(flags, "--dry-run")...)
	dry.want(t, 0)
	r := genRun(t, "", flags...)
	r.want(t, exitInputErrors)
	for name, out := range map[string]string{"--dry-run": dry.stdout + dry.stderr, "submit": r.stdout + r.stderr} {
		if strings.Contains(out, password) || !strings.Contains(out, "/hub") {
			t.Errorf("%s shows the password, or not the hub:\n%s", name, out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) != 2 || auth[0] != "site:"+password || auth[1] != auth[0] {
		t.Errorf("the servers were sent %v, want the credentials twice", auth)
	}
}

// TestSubmitPropertyMismatch: a Search Console property that does not
// hold the sitemap (another host, another scheme, another domain, a folder
// it is not in) is a usage error before anything is sent: Search Console
// refuses such a sitemap every time, so it stayed pending on every run.
// The properties that hold it are sent it.
func TestSubmitPropertyMismatch(t *testing.T) {
	g, submitTo := searchConsoleSite(t)
	puts := 0
	for _, c := range []struct {
		property string
		ok       bool
	}{
		{"https://shop.example.com/", false},
		{"http://www.example.com/", false},
		{"https://www.example.com/blog/", false},
		{"sc-domain:example.org", false},
		{"sc-domain:ample.com", false},
		{"https://WWW.example.com/", true},
		{"sc-domain:Example.com", true},
		{"sc-domain:www.example.com", true},
	} {
		r := submitTo(c.property)
		if c.ok {
			r.want(t, 0)
			puts++
		} else {
			r.want(t, exitUsage)
			if !strings.Contains(r.stderr, "does not contain the sitemap "+genBase+"sitemap.xml") {
				t.Errorf("%s: %s", c.property, r.stderr)
			}
		}
		if got := g.Puts(); len(got) != puts {
			t.Errorf("after %s: %d PUTs in all, want %d: %v", c.property, len(got), puts, got)
		}
	}
}

// TestSubmitURLOncePerRun: a page changed in two runs whose IndexNow
// notifications were both left pending is sent once when they go out
// together: IndexNow asks for a URL not to be sent again within minutes.
// The other URLs of each still go.
func TestSubmitURLOncePerRun(t *testing.T) {
	work, cfg, n, flags := indexNowSite(t)
	n.status = http.StatusUnprocessableEntity // refused, not retried: left pending
	blog := filepath.Join(work, "site", "blog")
	for i, pages := range [][]string{{"post-05.html"}, {"post-05.html", "post-06.html"}, {"post-05.html"}} {
		for _, p := range pages {
			genWrite(t, blog, p, "<main>rewritten "+p+" in run "+strconv.Itoa(i)+"</main>")
		}
		t.Setenv("SOURCE_DATE_EPOCH", strconv.Itoa(1768550400+86400*i))
		genRun(t, "", "generate", "--config", cfg).want(t, 0)
		genRun(t, "", flags...).want(t, exitInputErrors)
	}
	n.take()
	n.status = http.StatusOK
	r := genRun(t, "", flags...)
	r.want(t, 0)
	urls, _ := n.take()
	slices.Sort(urls)
	if want := []string{genBase + "blog/post-05.html", genBase + "blog/post-06.html"}; !slices.Equal(urls, want) {
		t.Errorf("IndexNow got %v, want each changed URL once: %v\n%s", urls, want, r.stdout)
	}
	if !strings.Contains(r.stdout, "IndexNow: 2 URLs sent.") {
		t.Errorf("the summary does not count each URL once:\n%s", r.stdout)
	}
	genRun(t, "", flags...).want(t, 0)
	if urls, _ := n.take(); len(urls) != 0 {
		t.Errorf("the next submit sent %v again", urls)
	}
}

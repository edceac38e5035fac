package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sitemapkit/sitemapkit/config"
	"github.com/sitemapkit/sitemapkit/state"
	"github.com/sitemapkit/sitemapkit/submit"
)

// submitFlags are the channels' flags, shared by submit and generate
// --submit. They fill config.Submit.
type submitFlags struct {
	s      config.Submit
	dryRun bool
	force  bool
}

func (sf *submitFlags) register(f *pflag.FlagSet, withDryRun bool) {
	f.StringVar(&sf.s.Robots, "robots", "", "keep the set's Sitemap: lines in this robots.txt `FILE` (default robots.txt in --out; \"none\": none)")
	f.Var(&enumFlag{p: &sf.s.IndexNow, names: []string{"on", "off"}, def: "on"}, "indexnow", "post changed URLs to IndexNow, or not")
	f.StringVar(&sf.s.IndexNowEndpoint, "indexnow-endpoint", "", "the IndexNow `URL` to post to (default "+submit.DefaultIndexNow+")")
	f.StringVar(&sf.s.IndexNowKey, "indexnow-key", "", "the IndexNow `KEY` (default: one made once and kept in the state)")
	f.StringArrayVar(&sf.s.WebSubHubs, "websub-hub", nil, "tell this WebSub hub `URL` when the feed changed (repeatable)")
	f.StringVar(&sf.s.SearchConsoleProperty, "search-console-property", "", "submit changed indexes to this Search Console `PROPERTY` (https://www.example.com/ or sc-domain:example.com)")
	f.StringVar(&sf.s.GoogleCredentials, "google-credentials", "", "a service account's JSON key `FILE` (default $GOOGLE_APPLICATION_CREDENTIALS)")
	f.StringVar(&sf.s.SearchConsoleEndpoint, "search-console-endpoint", "", "the Search Console API root `URL` (tests, private deployments)")
	f.StringVar(&sf.s.GoogleTokenURL, "google-token-url", "", "Google's OAuth token endpoint `URL` (tests, private deployments)")
	f.BoolVar(&sf.force, "force", false, "submit every index to Search Console (and the pings), and the feed to each hub, changed or not")
	if withDryRun {
		f.BoolVar(&sf.dryRun, "dry-run", false, "print every request that would be sent, and send none")
	}
}

// apply puts the flags given over the config's [submit].
func (sf *submitFlags) apply(flags *pflag.FlagSet, c *config.Submit) {
	set := func(name string, apply func()) {
		if flags.Changed(name) {
			apply()
		}
	}
	set("robots", func() { c.Robots = sf.s.Robots })
	set("indexnow", func() { c.IndexNow = sf.s.IndexNow })
	set("indexnow-endpoint", func() { c.IndexNowEndpoint = sf.s.IndexNowEndpoint })
	set("indexnow-key", func() { c.IndexNowKey = sf.s.IndexNowKey })
	set("websub-hub", func() { c.WebSubHubs = sf.s.WebSubHubs })
	set("search-console-property", func() { c.SearchConsoleProperty = sf.s.SearchConsoleProperty })
	set("google-credentials", func() { c.GoogleCredentials = sf.s.GoogleCredentials })
	set("search-console-endpoint", func() { c.SearchConsoleEndpoint = sf.s.SearchConsoleEndpoint })
	set("google-token-url", func() { c.GoogleTokenURL = sf.s.GoogleTokenURL })
}

const submitLong = `Make the published set's changes known, and only its changes:

  robots.txt       a Sitemap: line for each index (or lone sitemap), in the
                   robots.txt deployed with the site (default robots.txt in
                   --out); other lines stay as they are
  IndexNow         the URLs each run added, changed and removed (Bing,
                   Yandex, Seznam, Naver, Yep, Amazon); the first run
                   against an empty state sends none
  WebSub           each hub, when the feed (--feed) changed
  Search Console   each index whose bytes changed since it was last
                   submitted (sitemaps.submit, with a service account)

It sends what the state (--state) recorded of the runs generate published.
Every notification is written to the state before it is sent and marked
done once accepted: one that fails (or a run that is killed) is left
pending for the next submit, and one that was accepted is not sent again.
A run with nothing new sends no request. Google's and Bing's ping
endpoints were switched off (2023, 2022): none is called.

EXIT STATUS
  0    everything was sent (or there was nothing to send)
  1    something is still pending: the summary says what and why
  2    usage or environment error`

const submitExample = `  # The site's setup in ./sitemapkit.toml, its [submit] table:
  sitemapkit submit

  # What would be sent, sending nothing:
  sitemapkit submit --dry-run

  # One-off, with flags:
  sitemapkit submit --base https://www.example.com/ --out public/ --state .sitemapkit/state.db \
      --search-console-property sc-domain:example.com --google-credentials key.json

  # Build, then submit what this run changed:
  sitemapkit generate --config sitemapkit.toml --submit`

func newSubmitCommand(a *app) *cobra.Command {
	var configPath string
	var base, out, statePath, publicURL, name, manifest string
	sf := &submitFlags{}
	var quiet bool
	cmd := &cobra.Command{
		Use:     "submit [--config FILE] [--dry-run] [--force]",
		Short:   "Tell search engines what the last runs changed: robots.txt, IndexNow, WebSub, Search Console",
		Long:    submitLong,
		Example: submitExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg := &config.Config{}
			path := configPath
			if path == "" && !cmd.Flags().Changed("state") {
				if _, err := os.Stat(config.FileName); err == nil {
					path = config.FileName
				}
			}
			if path != "" {
				var err error
				if cfg, err = config.Load(path); err != nil {
					return &exitError{code: exitUsage, err: err}
				}
			}
			f := cmd.Flags()
			for flag, p := range map[string]*string{"base": &cfg.Base, "out": &cfg.Out, "state": &cfg.State, "public-url": &cfg.PublicURL, "name": &cfg.Name, "manifest": &cfg.Manifest} {
				if f.Changed(flag) {
					*p = map[string]string{"base": base, "out": out, "state": statePath, "public-url": publicURL, "name": name, "manifest": manifest}[flag]
				}
			}
			sf.apply(f, &cfg.Submit)
			switch {
			case cfg.Base == "" || cfg.Out == "" || cfg.State == "":
				return &usageError{msg: "submit: needs --base, --out and --state (or a " + config.FileName + " with them)",
					hint: "sitemapkit submit --base https://www.example.com/ --out public/ --state .sitemapkit/state.db"}
			}
			if err := cfg.Detach().ValidateSubmit(); err != nil {
				return &usageError{msg: "submit: " + flagWords(err, nil), hint: "sitemapkit submit --help"}
			}
			return runSubmit(cmd.Context(), a, cfg, sf, quiet)
		},
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.StringVar(&configPath, "config", "", "read the setup from `FILE` (default ./sitemapkit.toml when there)")
	f.StringVar(&base, "base", "", "the site's `URL`")
	f.StringVar(&out, "out", "", "the folder `DIR` the set is published in")
	f.StringVar(&statePath, "state", "", "the state `FILE` generate --state keeps")
	f.StringVar(&publicURL, "public-url", "", "the `URL` --out is served at, when not --base")
	f.StringVar(&name, "name", "", "the set's name `STEM` (default sitemap)")
	f.StringVar(&manifest, "manifest", "", "the `FILE` generate --manifest keeps the set's manifest in, when not in --out")
	sf.register(f, true)
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

// runSubmit sends what the state of cfg has to send.
func runSubmit(ctx context.Context, a *app, cfg *config.Config, sf *submitFlags, quiet bool) error {
	if _, err := os.Stat(cfg.State); err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("no state at %s: run generate --state %s first; submit sends what it records", cfg.State, cfg.State)}
	}
	bo := cfg.BuildOptions().WithDefaults()
	public := bo.PublicURL
	if public == "" || public == "/" {
		public = bo.Base
	}
	open := state.Open
	if sf.dryRun {
		open = state.OpenCopy
	}
	store, err := open(ctx, cfg.State)
	if err != nil {
		return stateError(err)
	}
	defer store.Close()
	if err := store.CheckSite(ctx, siteOf(bo.Base)); err != nil {
		return stateError(err)
	}
	ob, err := store.Outbox(ctx)
	if err != nil {
		return stateError(err)
	}
	sub := cfg.Submit
	o := submit.Options{Dir: bo.Dir, Name: bo.Name, PublicURL: public, Base: bo.Base, Manifest: bo.Manifest, Outbox: ob, Force: sf.force, DryRun: sf.dryRun}
	var robotsNote string
	switch {
	case sub.Robots == "none":
	case sub.Robots != "":
		o.Robots = sub.Robots
	case public == bo.Base:
		o.Robots = filepath.Join(bo.Dir, "robots.txt")
	default:
		// robots.txt lives at the site's root, which --out is not.
		robotsNote = "robots.txt: not kept: --out is served at " + public + ", not at the site's root; give --robots FILE (the robots.txt deployed at " + bo.Base + "robots.txt)."
	}
	if k := sub.IndexNowKey; k != "" && !submit.ValidKey(k) {
		// Checked here, not by config, which must not link the state's
		// SQLite through package submit.
		return &exitError{code: exitUsage, err: errors.New("indexnow_key (--indexnow-key): an IndexNow key is 8 to 128 letters, digits and dashes")}
	}
	if sub.IndexNow != "off" {
		o.IndexNow = &submit.IndexNow{Endpoint: sub.IndexNowEndpoint, Key: sub.IndexNowKey}
	}
	o.Hubs = sub.WebSubHubs
	if len(o.Hubs) == 0 && cfg.Hub != "" {
		o.Hubs = []string{cfg.Hub}
	}
	o.WebSub = &submit.WebSub{}
	o.Pings = sub.Pings
	if sub.SearchConsoleProperty != "" {
		creds := sub.GoogleCredentials
		if creds == "" {
			creds = os.Getenv("GOOGLE_APPLICATION_CREDENTIALS")
		}
		if creds == "" {
			return &exitError{code: exitUsage, err: errors.New("search_console_property needs a service account's key: --google-credentials FILE, google_credentials, or GOOGLE_APPLICATION_CREDENTIALS")}
		}
		key, err := os.ReadFile(creds)
		if err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("google credentials: %w", err)}
		}
		client, err := submit.GoogleClient(ctx, key, sub.GoogleTokenURL)
		if err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("%s: %w", creds, err)}
		}
		o.SearchConsole = &submit.SearchConsole{Endpoint: sub.SearchConsoleEndpoint, Property: sub.SearchConsoleProperty, Client: client}
	}
	o.Sent = func(it state.Item, err error) {
		if err == nil {
			killAt("sent") // the kill test's: sent, not yet marked done
		}
	}
	rep, err := submit.Submit(ctx, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("submit: %w", err)}
	}
	if !quiet {
		if robotsNote != "" {
			fmt.Fprintln(a.stdout, robotsNote)
		}
		printSubmit(a, rep, sf.dryRun)
	}
	if len(rep.Pending) > 0 {
		return &exitError{code: exitInputErrors, err: fmt.Errorf("%s still pending; the next submit sends %s", countOf(len(rep.Pending), "notification"), them(len(rep.Pending)))}
	}
	return nil
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// printSubmit says, channel by channel, what was sent and what is left.
func printSubmit(a *app, rep *submit.Report, dryRun bool) {
	w := a.stdout
	if rep.Robots != "" {
		fmt.Fprintf(w, "robots.txt: %s.\n", rep.Robots)
	}
	if dryRun {
		if len(rep.Requests) == 0 {
			fmt.Fprintln(w, "Dry run: nothing to send.")
			return
		}
		fmt.Fprintf(w, "Dry run: %s would be sent, none is:\n", countOf(len(rep.Requests), "request"))
		for _, r := range rep.Requests {
			fmt.Fprintf(w, "  %s\n", r)
		}
		printHeld(w, rep)
		return
	}
	if len(rep.Sent) == 0 && len(rep.Pending) == 0 {
		fmt.Fprintln(w, "Nothing changed since the last submit: no request sent.")
		printHeld(w, rep)
		return
	}
	byChannel := map[string][2]int{}
	var order []string
	count := func(items []state.Item, k int) {
		for _, it := range items {
			if _, ok := byChannel[it.Channel]; !ok {
				order = append(order, it.Channel)
			}
			c := byChannel[it.Channel]
			c[k] += max(it.Count, 1)
			byChannel[it.Channel] = c
		}
	}
	count(rep.Sent, 0)
	count(rep.Pending, 1)
	for _, ch := range order {
		c := byChannel[ch]
		what := "sitemap"
		switch ch {
		case "indexnow":
			what = "URL"
		case "websub":
			what = "feed"
		}
		fmt.Fprintf(w, "%s: %s sent", channelName(ch), countOf(c[0], what))
		if c[1] > 0 {
			fmt.Fprintf(w, ", %s pending", countOf(c[1], what))
		}
		fmt.Fprintln(w, ".")
	}
	for _, it := range rep.Pending {
		fmt.Fprintf(w, "  pending: %s\n", it.LastError)
	}
	printHeld(w, rep)
}

// printHeld says what waits for a channel this run does not use.
func printHeld(w io.Writer, rep *submit.Report) {
	if len(rep.Held) > 0 {
		fmt.Fprintf(w, "Held: %s queued for channels this run does not use (sent when they are configured again).\n", countOf(len(rep.Held), "notification"))
	}
}

func channelName(ch string) string {
	switch ch {
	case "indexnow":
		return "IndexNow"
	case "websub":
		return "WebSub"
	case "search-console":
		return "Search Console"
	}
	return strings.ToUpper(ch[:1]) + ch[1:]
}

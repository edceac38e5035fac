package source_test

import (
	"context"
	"testing"

	"github.com/sitemapkit/sitemapkit/internal/xsdtest"
	"github.com/sitemapkit/sitemapkit/publish"
	"github.com/sitemapkit/sitemapkit/source"
)

// buildAll publishes every URL of src with opts through the real builder,
// checks the files against the schemas, and returns the result with the
// refusals, each named by its place.
func buildAll(t *testing.T, src source.Source, opts publish.Options) (*publish.Result, []string) {
	t.Helper()
	opts.Dir = t.TempDir()
	bld, err := publish.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	err = bld.AddAll(context.Background(), src.All(), func(err error) error {
		refused = append(refused, source.Place(src)+": "+err.Error())
		return nil
	})
	if err != nil {
		bld.Abort()
		t.Fatal(err)
	}
	res, err := bld.Publish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	xsdtest.Check(t, opts.Dir)
	return res, refused
}

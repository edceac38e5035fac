package loc

import (
	"errors"

	"github.com/sitemapkit/sitemapkit/sitemap"
)

// NormalizeExtensions normalises the URLs of u's images, videos and
// alternates (see Normalize; they may be on any host, so no scope applies).
// It copies a slice before changing it: the slices u had, which may be a
// Source's own memory, are never written. On a URL Normalize refuses it
// returns its *sitemap.Violation, with Field naming the element
// ("image:loc", "video:thumbnail_loc", "xhtml:link"…) and Index which of
// them it is; u's slices may then hold normalised copies already.
func NormalizeExtensions(u *sitemap.URL) (err error) {
	if len(u.Images)+len(u.Videos)+len(u.Alternates) == 0 {
		return nil // most URLs: a call per URL, so the quickest way out
	}
	if u.Images, err = normalizeAll(u.Images, imageURLs); err != nil {
		return err
	}
	if u.Videos, err = normalizeAll(u.Videos, videoURLs); err != nil {
		return err
	}
	u.Alternates, err = normalizeAll(u.Alternates, alternateURLs)
	return err
}

// A urlField is a URL-valued field of an extension element.
type urlField[T any] struct {
	name     string // as a Violation names it
	optional bool   // empty means absent
	p        func(*T) *string
}

var (
	imageURLs = []urlField[sitemap.Image]{
		{"image:loc", false, func(x *sitemap.Image) *string { return &x.Loc }},
	}
	videoURLs = []urlField[sitemap.Video]{
		{"video:thumbnail_loc", false, func(x *sitemap.Video) *string { return &x.ThumbnailLoc }},
		{"video:content_loc", true, func(x *sitemap.Video) *string { return &x.ContentLoc }},
		{"video:player_loc", true, func(x *sitemap.Video) *string { return &x.PlayerLoc }},
	}
	alternateURLs = []urlField[sitemap.Alternate]{
		{"xhtml:link", false, func(x *sitemap.Alternate) *string { return &x.Href }},
	}
)

// normalizeAll normalises fields of every element of xs, copying xs on the
// first change.
func normalizeAll[T any](xs []T, fields []urlField[T]) ([]T, error) {
	copied := false
	for i := range xs {
		for _, f := range fields {
			s := *f.p(&xs[i])
			if s == "" && f.optional {
				continue
			}
			n, err := Normalize(s)
			if err != nil {
				var v *sitemap.Violation
				if errors.As(err, &v) {
					v.Field, v.Index = f.name, i
				}
				return xs, err
			}
			if n != s {
				if !copied {
					xs, copied = append([]T(nil), xs...), true
				}
				*f.p(&xs[i]) = n
			}
		}
	}
	return xs, nil
}

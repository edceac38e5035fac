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

// A urlField is a URL-valued field of an extension element. Every one is
// normalised, not only those Google requires: a license, gallery or
// uploader page given as an IRI is as much a URL as the image's own, and
// the Writer refuses it unescaped.
type urlField[T any] struct {
	name     string // as a Violation names it
	optional bool   // empty means absent
	p        func(*T) *string
	// own, when set, copies what the field lies behind (a pointer the
	// element shares with its source) before the field is changed.
	own func(*T)
}

// absent stands for a field behind a nil pointer: empty, and optional, so
// never written.
var absent string

var (
	imageURLs = []urlField[sitemap.Image]{
		{"image:loc", false, func(x *sitemap.Image) *string { return &x.Loc }, nil},
		{"image:license", true, func(x *sitemap.Image) *string { return &x.License }, nil},
	}
	videoURLs = []urlField[sitemap.Video]{
		{"video:thumbnail_loc", false, func(x *sitemap.Video) *string { return &x.ThumbnailLoc }, nil},
		{"video:content_loc", true, func(x *sitemap.Video) *string { return &x.ContentLoc }, nil},
		{"video:player_loc", true, func(x *sitemap.Video) *string { return &x.PlayerLoc }, nil},
		{"video:gallery_loc", true, func(x *sitemap.Video) *string { return &x.GalleryLoc }, nil},
		{"video:uploader@info", true, func(x *sitemap.Video) *string {
			if x.Uploader == nil {
				return &absent
			}
			return &x.Uploader.Info
		}, func(x *sitemap.Video) {
			up := *x.Uploader
			x.Uploader = &up
		}},
	}
	alternateURLs = []urlField[sitemap.Alternate]{
		{"xhtml:link", false, func(x *sitemap.Alternate) *string { return &x.Href }, nil},
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
				if f.own != nil {
					f.own(&xs[i])
				}
				*f.p(&xs[i]) = n
			}
		}
	}
	return xs, nil
}

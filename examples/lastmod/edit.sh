#!/bin/sh
# edit.sh SITE: what a week does to the example blog in SITE, for the
# example of "Keeping lastmod true" (README) and its test
# (cmd/sitemapkit/lastmod_test.go).
#
#   - a rebuild: every page gets this year's footer and a new cache-busting
#     script name, and the generator's timestamp moves: no page changed;
#   - two posts are edited: their text changes;
#   - two posts are only touched: their mtime moves, their content does not;
#   - one post is written, one is deleted.
set -eu
site=${1:?usage: edit.sh SITE}

for f in "$site"/index.html "$site"/blog/*.html; do
	sed -e 's/© 2025/© 2026/' \
	    -e 's/app\.3f2a\.js/app.9c1d.js/' \
	    -e 's/site\.3f2a\.css/site.9c1d.css/' \
	    -e 's/built 2025-06-01T10:00:00Z/built 2026-01-15T08:30:00Z/' \
	    -e 's/Visits: 1024/Visits: 2048/' \
	    "$f" > "$f.new"
	mv "$f.new" "$f"
done

sed -i -e 's/This is post 02\./This is post 02, corrected./' "$site/blog/post-02.html"
sed -i -e 's/This is post 10\./This is post 10, with a new paragraph./' "$site/blog/post-10.html"

touch "$site/blog/post-05.html" "$site/blog/post-06.html"

sed -e 's/post-01/post-12/g' -e 's/Post 01/Post 12/g' -e 's/This is post 01\./This is post 12, the newest./' \
	"$site/blog/post-01.html" > "$site/blog/post-12.html"
rm "$site/blog/post-11.html"

-- formdown_markdown_cell (20261126000200) looked for a block marker after [[:space:]], which
-- follows the C library's idea of a space: a no-break space (U+00A0, U+2007, U+202F) and U+FEFF
-- are not among them, while the page's escaping (src/core/markdown.ts, JavaScript's \s) counts
-- them. The same function, with JavaScript's whitespace written out.
create or replace function formdown_markdown_cell(t text) returns text
  language sql immutable parallel safe
  as $$ select regexp_replace(
      replace(replace(replace(
        regexp_replace(
          regexp_replace(
            regexp_replace(
              regexp_replace(t, '([\\`*\[\]<>|])', '\\\1', 'g'),
              '(?<![A-Za-z0-9_])_|_(?![A-Za-z0-9_])', '\\_', 'g'),
            '^([\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*)([#>+-])([\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff])', '\1\\\2\3', 'gn'),
          '^([\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*[0-9]+)([.)])([\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff])', '\1\\\2\3', 'gn'),
        E'\r\n', '<br>'), E'\r', '<br>'), E'\n', '<br>'),
      E'[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]', U&'\FFFD', 'g') $$;

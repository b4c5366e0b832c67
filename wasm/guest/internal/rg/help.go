package rg

const helpText = `ripgrep ` + UpstreamVersion + ` (wasmsand)
ripgrep (rg) recursively searches the current directory for a regex pattern.
By default, ripgrep will respect gitignore rules and automatically skip hidden
files/directories and binary files.

` + usage + `
ARGS:
    <PATTERN>    A regular expression used for searching.
    <PATH>...    A file or directory to search.

OPTIONS:
    -A, --after-context <NUM>     Show NUM lines after each match.
    -B, --before-context <NUM>    Show NUM lines before each match.
    -C, --context <NUM>           Show NUM lines before and after each match.
        --column                  Show column numbers (1-based) of the first match.
        --context-separator <SEPARATOR>
                                  The string used to separate non-contiguous context lines.
    -c, --count                   Only show the count of matching lines for each file.
        --count-matches           Only show the count of individual matches for each file.
    -s, --case-sensitive          Search case sensitively (the default).
    -e, --regexp <PATTERN>...     A pattern to search for; may be given more than once.
    -f, --file <PATTERNFILE>...   Search for patterns from the given file, one per line.
        --files                   Print each file that would be searched, without searching.
    -l, --files-with-matches      Print the paths with at least one match.
        --files-without-match     Print the paths that contain zero matches.
    -F, --fixed-strings           Treat the pattern as a literal string.
    -L, --follow                  Follow symbolic links.
    -g, --glob <GLOB>...          Include or exclude files and directories (gitignore
                                  globs; '!' excludes). Overrides ignore logic.
        --iglob <GLOB>...         As --glob, case insensitively.
        --heading                 Print the file path above clusters of matches.
        --hidden                  Search hidden files and directories.
    -i, --ignore-case             Search case insensitively.
    -v, --invert-match            Invert matching.
        --json                    Show search results in a JSON Lines format.
    -n, --line-number             Show line numbers (1-based).
    -N, --no-line-number          Suppress line numbers.
    -x, --line-regexp             Only show matches surrounded by line boundaries.
    -m, --max-count <NUM>         Limit the number of matching lines per file.
    -d, --max-depth <NUM>         Limit the depth of directory traversal.
        --no-filename             Never print the file path with the matched lines.
    -H, --with-filename           Display the file path for matches.
        --no-heading              Don't group matches by each file.
        --no-ignore               Don't respect ignore files.
        --no-ignore-dot           Don't respect .ignore and .rgignore files.
        --no-ignore-parent        Don't respect ignore files in parent directories.
        --no-ignore-vcs           Don't respect .gitignore and .git/info/exclude.
        --no-messages             Suppress error messages about opening and reading files.
        --no-require-git          Respect .gitignore outside of git repositories too.
    -0, --null                    Follow file paths with a NUL byte.
    -o, --only-matching           Print only the matched parts of a matching line.
    -q, --quiet                   Do not print anything; exit 0 at the first match.
    -r, --replace <REPLACEMENT>   Replace every match with REPLACEMENT ($1, ${name}).
    -S, --smart-case              Case insensitive unless the pattern has an upper-case letter.
        --sort <SORTBY>           Sort results (path, modified, accessed, created, none).
    -a, --text                    Search binary files as if they were text.
        --binary                  Search binary files, stopping at the first match.
    -t, --type <TYPE>...          Only search files matching TYPE.
        --type-list               Show all supported file types and their globs.
    -T, --type-not <TYPE>...      Do not search files matching TYPE.
    -u, --unrestricted            -u: --no-ignore, -uu: and --hidden, -uuu: and --binary.
        --vimgrep                 Show every match on its own line with line and column.
    -w, --word-regexp             Only show matches surrounded by word boundaries.
    -h, --help                    Print help information.
    -V, --version                 Print version information.
`

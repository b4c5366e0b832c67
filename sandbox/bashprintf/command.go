package bashprintf

// usage is the line bash prints, without the "bash: line N: " prefix,
// after an option error.
const usage = "printf: usage: printf [-v var] format [arguments]"

// helpText is what "printf --help" writes to stdout.
const helpText = "" +
	"printf: printf [-v var] format [arguments]\n" +
	"    Formats and prints ARGUMENTS under control of the FORMAT.\n" +
	"    \n" +
	"    Options:\n" +
	"      -v var\tassign the output to shell variable VAR rather than\n" +
	"    \t\tdisplay it on the standard output\n" +
	"    \n" +
	"    FORMAT is a character string which contains three types of objects: plain\n" +
	"    characters, which are simply copied to standard output; character escape\n" +
	"    sequences, which are converted and copied to the standard output; and\n" +
	"    format specifications, each of which causes printing of the next successive\n" +
	"    argument.\n" +
	"    \n" +
	"    In addition to the standard format specifications described in printf(1),\n" +
	"    printf interprets:\n" +
	"    \n" +
	"      %b\texpand backslash escape sequences in the corresponding argument\n" +
	"      %q\tquote the argument in a way that can be reused as shell input\n" +
	"      %Q\tlike %q, but apply any precision to the unquoted argument before\n" +
	"    \t\tquoting\n" +
	"      %(fmt)T\toutput the date-time string resulting from using FMT as a format\n" +
	"    \t        string for strftime(3)\n" +
	"    \n" +
	"    The format is re-used as necessary to consume all of the arguments.  If\n" +
	"    there are fewer arguments than the format requires,  extra format\n" +
	"    specifications behave as if a zero value or null string, as appropriate,\n" +
	"    had been supplied.\n" +
	"    \n" +
	"    Exit Status:\n" +
	"    Returns success unless an invalid option is given or a write or assignment\n" +
	"    error occurs.\n"

// Command runs printf with its command-line operands (the words after
// "printf"): it parses -v VAR and "--" like bash and then formats. When
// varName is not empty the caller must assign out to that shell variable
// (name or name[subscript]) instead of writing it to stdout, even when
// status is not 0. Diagnostics in errs carry bash's "printf: " prefix;
// bash prints all but the usage line (which starts with "printf: usage:")
// after its "bash: line N: " prefix.
func (o *Options) Command(operands []string) (out string, errs []string, status int, varName string) {
	i := 0
	for i < len(operands) {
		a := operands[i]
		if a == "--" {
			i++
			break
		}
		if a == "--help" {
			return helpText, nil, 2, ""
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if a[1] != 'v' {
			return "", []string{"printf: -" + a[1:2] + ": invalid option", usage}, 2, ""
		}
		// -v takes the rest of the word or the next word.
		name := a[2:]
		if name == "" {
			if i+1 >= len(operands) {
				return "", []string{"printf: -v: option requires an argument", usage}, 2, ""
			}
			i++
			name = operands[i]
		}
		if !validVarRef(name) {
			return "", []string{"printf: `" + name + "': not a valid identifier"}, 2, ""
		}
		varName = name
		i++
	}
	if i >= len(operands) {
		return "", []string{usage}, 2, ""
	}
	out, errs, status = o.Format(operands[i], operands[i+1:])
	return out, errs, status, varName
}

// validVarRef reports whether s names a shell variable or an array
// element: name or name[subscript].
func validVarRef(s string) bool {
	if validName(s) {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			return i > 0 && validName(s[:i]) && len(s) > i+2 && s[len(s)-1] == ']'
		}
	}
	return false
}

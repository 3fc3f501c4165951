package record

import (
	"os"
	"strings"
	"testing"
)

// TestFormatsListsEveryTermination: docs/FORMATS.md is the reference page
// other tools read the journal by, so every termination a record may carry
// is named in its list of terminations, in backquotes as written.
func TestFormatsListsEveryTermination(t *testing.T) {
	b, err := os.ReadFile("../../docs/FORMATS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "**Terminations** (`end`):")
	if start < 0 {
		t.Fatal("docs/FORMATS.md: no **Terminations** paragraph")
	}
	para := doc[start:]
	if end := strings.Index(para, "\n\n"); end >= 0 {
		para = para[:end]
	}
	para = strings.Join(strings.Fields(para), " ") // a name may be broken across lines
	for _, term := range terminations {
		if !strings.Contains(para, "`"+string(term)+"`") {
			t.Errorf("docs/FORMATS.md does not list the termination %q", term)
		}
	}
}

// Package report renders standings and crosstables as tables: text for a
// terminal, Markdown, CSV, JSON and HTML.
package report

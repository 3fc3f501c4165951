// Package journal owns the append-only file of an event's finished games:
// one record per line, each synced to disk before it is acknowledged, read
// back on resume.
package journal

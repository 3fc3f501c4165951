package event

import "path/filepath"

// SampleFile is where a match writes its samples: with an output folder,
// a relative file in that folder (the match's files stay together, and a
// continued match finds them), for a shard the file's base name in the
// shard's folder (each shard its own; arena merge joins them); an absolute
// file, or any file of a match without a folder (c-gomoku-cli's), as given.
func (m *Match) SampleFile() string {
	switch {
	case m.Sample == nil:
		return ""
	case !m.Plan.Shard.Whole():
		return filepath.Join(m.Folder(), filepath.Base(m.Sample.File))
	case m.Out != "" && !filepath.IsAbs(m.Sample.File):
		return filepath.Join(m.Folder(), m.Sample.File)
	}
	return m.Sample.File
}

// Folder is where the match's files go: Out, or for a shard of a batch
// the shard's folder inside it.
func (m *Match) Folder() string {
	if m.Out == "" || m.Plan.Shard.Whole() {
		return m.Out
	}
	return filepath.Join(m.Out, m.Plan.Shard.Folder())
}

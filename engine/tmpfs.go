package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"gomoku-arena/internal/affinity"
)

// Memory an engine holds outside its processes: files in a tmpfs (/tmp,
// /dev/shm) are kept in memory. Each engine gets its own /tmp and /dev/shm,
// tmpfs of at most Limits.Memory bytes each, whose use counts as its memory
// (Engine.Memory) and which the kernel removes with the engine's last
// process: bubblewrap makes them for a sandboxed engine; for an unconfined
// one the arbiter does, in a mount namespace of the engine's own, where it
// may (as root: the engine starts in its PID namespace). Its /tmp is an
// overlay there, the machine's /tmp seen through it (programs and their
// folders may lie there) and what it writes kept in its tmpfs; its
// /dev/shm is a fresh tmpfs, as under bubblewrap: the shared memory of the
// machine's other processes is none of its business. There every other
// filesystem kept in memory that root could write (/dev, /run, a tmpfs
// /sys/fs/cgroup, /dev/mqueue...) and every kernel filesystem (sysfs,
// cgroups: moving itself out of its cgroup would escape its limits) is
// read-only to the engine: what it could write there would be neither
// counted nor removed. An ordinary user's unconfined engine shares the
// machine's /tmp and /dev/shm.

// privateTmpFolders are the tmpfs folders an engine gets its own of;
// overlaidTmp is the one of them where it sees the machine's folder too.
var privateTmpFolders = []string{"/tmp", "/dev/shm"}

const overlaidTmp = "/tmp"

// errThisStart marks a refusal that concerns one engine's start only.
var errThisStart = errors.New("this engine only")

// privateTmpRefused is set once the kernel refused a private /tmp (in a
// container without the right, say); engines then share the machine's.
var privateTmpRefused atomic.Bool

// startWithPrivateTmp runs start (which must start cmd) on the mover, in a
// new mount namespace with its own privateTmpFolders: tmpfs of at most
// tmpMax bytes each (0: the kernel's default), overlaidTmp an overlay of
// the machine's. The engine's working directory cmd.Dir, if it lies in a
// folder made private or read-only there, is bound back so that it writes
// there for real; its own scratch folder is not (nobody reads it after
// it): the engine starts in it by its path, seen through the overlay, and
// what it writes there is kept in its tmpfs too. The process inherits all
// this. It returns the error of start, or the refusal to make the
// namespace (then start has not run).
func startWithPrivateTmp(tmpMax int64, cmd *exec.Cmd, scratch bool, start func() error) (refused, err error) {
	refused = onMover(func() error {
		dir, perr := privateTmp(tmpMax, cmd.Dir, scratch)
		if perr != nil {
			return perr
		}
		held := cmd.Dir
		cmd.Dir = dir
		err = start()
		cmd.Dir = held
		return nil
	})
	return refused, err
}

// The mover is the one thread of the arbiter that leaves its mount
// namespace: to make the sealed model (sealedNS) and to start each
// unconfined root engine in a namespace of its own. It is locked to its
// goroutine for good, so no other goroutine ever runs on it, and it never
// ends: a thread that ends takes with it every engine it started (their
// Pdeathsig fires when the thread that started them ends, whatever the
// process does). It has its own root and working directory (CLONE_FS
// unshared, as moving requires), which it sets to the arbiter's (its main
// thread's, /proc/self) before each job, so that relative paths mean what
// they mean to the rest of the arbiter; after each job it goes back to the
// arbiter's namespace. It is never the main thread, whose namespace
// /proc/self shows. One thread made once, where a thread made and ended for
// each engine cost each start a thread's creation and end.
var mover struct {
	once sync.Once
	jobs chan func()
	home int   // the arbiter's mount namespace
	err  error // why the mover cannot move: every job fails with it
}

// onMover runs f on the mover, at home with the arbiter's root and working
// directory; f may move it to another mount namespace, and it goes back
// after. It returns f's error, or why f could not run.
func onMover(f func() error) error {
	mover.once.Do(startMover)
	done := make(chan error, 1)
	mover.jobs <- func() {
		if mover.err != nil {
			done <- mover.err
			return
		}
		if err := followArbiter(); err != nil {
			done <- fmt.Errorf("mount namespace: %w", err)
			return
		}
		err := f()
		if gerr := goHome(); gerr != nil {
			// Stuck elsewhere: no more moves (the thread must not end).
			mover.err = fmt.Errorf("mount namespace: cannot go back: %w", gerr)
		}
		done <- err
	}
	return <-done
}

// startMover starts the mover and waits until it serves.
func startMover() {
	mover.jobs = make(chan func())
	ready := make(chan struct{})
	var launch func()
	launch = func() {
		go func() {
			runtime.LockOSThread()
			if unix.Gettid() == unix.Getpid() {
				launch() // on another thread, which this goroutine does not hold
				runtime.UnlockOSThread()
				return
			}
			mover.home, mover.err = unix.Open("/proc/thread-self/ns/mnt", unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if mover.err == nil {
				mover.err = unix.Unshare(unix.CLONE_FS)
			}
			if mover.err != nil {
				mover.err = fmt.Errorf("mount namespace: %w", mover.err)
			}
			close(ready)
			for job := range mover.jobs {
				job()
			}
		}()
	}
	launch()
	<-ready
}

// followArbiter gives the mover the root and working directory of the
// arbiter's main thread (which every other thread shares).
func followArbiter() error {
	root, err := unix.Open("/proc/self/root", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(root)
	cwd, err := unix.Open("/proc/self/cwd", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(cwd)
	if err := unix.Fchdir(root); err != nil {
		return err
	}
	if err := unix.Chroot("."); err != nil {
		return err
	}
	return unix.Fchdir(cwd)
}

// goHome moves the mover back to the arbiter's mount namespace, root and
// working directory (entering a namespace sets both to its root).
func goHome() error {
	if err := unix.Setns(mover.home, unix.CLONE_NEWNS); err != nil {
		return err
	}
	return followArbiter()
}

// sealedNS is a mount namespace made once per arbiter, the model of every
// unconfined engine's: its mounts private (nothing mounted in it shows in
// the arbiter's), and those of sealedTypes read-only (sealMounts). Each
// engine's namespace is a copy of it with its own overlays: an engine's
// start pays for the copy and the overlays, not for reading the mount table
// and sealing each mount again. Mounts the machine makes after the first
// engine started are not seen by engines.
var sealedNS struct {
	once   sync.Once
	fd     int      // open on the namespace (/proc/thread-self/ns/mnt of the thread that made it), held for good
	sealed []string // the mount points sealed
	err    error    // the namespace could not be made
}

// makeSealedNS makes sealedNS on the mover, which it leaves in it.
func makeSealedNS() error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	// Mounts made here must not show in the arbiter's namespace.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	sealed, err := sealMounts()
	if err != nil {
		return fmt.Errorf("read-only %w", err)
	}
	fd, err := unix.Open("/proc/thread-self/ns/mnt", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	sealedNS.fd, sealedNS.sealed = fd, sealed
	return nil
}

// enterSealedNS moves the mover (it runs there, at home) to a copy of
// sealedNS, made first when it is not yet.
func enterSealedNS() ([]string, error) {
	sealedNS.once.Do(func() {
		sealedNS.err = makeSealedNS()
		if err := goHome(); err != nil && sealedNS.err == nil {
			sealedNS.err = fmt.Errorf("mount namespace: cannot go back: %w", err)
		}
	})
	if sealedNS.err != nil {
		return nil, sealedNS.err
	}
	if err := unix.Setns(sealedNS.fd, unix.CLONE_NEWNS); err != nil {
		return nil, fmt.Errorf("mount namespace: %w", err)
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return nil, fmt.Errorf("mount namespace: %w", err)
	}
	return sealedNS.sealed, nil
}

// privateTmp moves the calling thread to a new mount namespace with the
// folders startWithPrivateTmp describes, and returns the working directory
// the process starts in there.
func privateTmp(tmpMax int64, dir string, scratch bool) (string, error) {
	start := dir
	opts := "mode=1777"
	if tmpMax > 0 {
		opts += ",size=" + strconv.FormatInt(tmpMax, 10)
	}
	// The working directory's path, taken before the thread moves: entering
	// a namespace sets its working directory to the namespace's root.
	abs, absErr := filepath.Abs(dir)
	sealed, err := enterSealedNS()
	if err != nil {
		return "", err
	}
	work := -1
	if err := absErr; err == nil && dir != "" {
		// dir may be /proc/self/fd/N, the folder Start checked and holds:
		// a folder of the arbiter's mount namespace, which cannot be bound
		// in this one. It is opened again here by the path it has now,
		// and must be the same folder.
		var held unix.Stat_t
		p, err := os.Readlink(abs)
		byFd := err == nil && filepath.IsAbs(p) && strings.HasPrefix(abs, "/proc/self/fd/") && unix.Stat(abs, &held) == nil
		if byFd {
			abs = p
		}
		if work, err = unix.Open(abs, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
			work = -1
		}
		var now unix.Stat_t
		if byFd && (work < 0 || unix.Fstat(work, &now) != nil || now.Dev != held.Dev || now.Ino != held.Ino) {
			if work >= 0 {
				unix.Close(work)
			}
			return "", fmt.Errorf("working directory %s: not the folder checked (%w)", abs, errThisStart)
		}
		dir = abs
	}
	if work >= 0 {
		defer unix.Close(work)
	}
	for _, d := range privateTmpFolders {
		if !isDir(d) {
			continue
		}
		if err := privateFolder(d, opts); err != nil {
			return "", fmt.Errorf("private %s: %w", d, err)
		}
	}
	if work < 0 {
		return start, nil
	}
	// Its own scratch folder, seen through the overlay, is taken by its
	// path (the held descriptor leads to the machine's folder), and all it
	// writes there stays in its tmpfs.
	if scratch && within(dir, overlaidTmp) {
		return dir, nil
	}
	// Any other working directory, where it lies in one of those, is bound
	// back: it writes there for real.
	if slices.ContainsFunc(append(sealed, privateTmpFolders...), func(mp string) bool { return within(dir, mp) }) {
		if err := unix.Mount(fdPath(work), dir, "", unix.MS_BIND, ""); err != nil {
			return "", fmt.Errorf("working directory: %w (%w)", err, errThisStart)
		}
		if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_BIND, ""); err != nil {
			return "", fmt.Errorf("working directory: %w (%w)", err, errThisStart)
		}
	}
	return start, nil
}

// privateFolder mounts the namespace's own tmpfs (opts) on d: over the
// machine's folder for overlaidTmp (overlay), in its place for any other.
func privateFolder(d, opts string) error {
	if d != overlaidTmp {
		return unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts)
	}
	lower, err := unix.Open(d, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(lower)
	return overlay(d, lower, opts)
}

// sealedTypes are the filesystems kept in memory, or the kernel's own, that
// an unconfined engine must not write: files it put there would be neither
// counted as its memory nor removed with it, and a kernel setting it
// changed would outlive it.
var sealedTypes = map[string]bool{"tmpfs": true, "ramfs": true, "devtmpfs": true, "hugetlbfs": true, "mqueue": true,
	"sysfs": true, "cgroup": true, "cgroup2": true, "securityfs": true, "debugfs": true, "tracefs": true,
	"configfs": true, "pstore": true, "efivarfs": true, "bpf": true, "fusectl": true, "binfmt_misc": true}

// sealMounts makes every mount of sealedTypes in the calling thread's
// mount namespace read-only, except privateTmpFolders and what lies below
// them (they become private overlays), and returns their mount points.
// Writing to a device node (/dev/null) stays allowed on a read-only /dev.
func sealMounts() ([]string, error) {
	b, err := os.ReadFile("/proc/thread-self/mountinfo")
	if err != nil {
		return nil, err
	}
	var sealed []string
	for _, line := range strings.Split(string(b), "\n") {
		mp, opts, fstype, ok := parseMountInfo(line)
		if !ok || !sealedTypes[fstype] || slices.ContainsFunc(privateTmpFolders, func(d string) bool { return within(mp, d) }) {
			continue
		}
		flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY)
		for _, o := range strings.Split(opts, ",") {
			flags |= map[string]uintptr{"nosuid": unix.MS_NOSUID, "nodev": unix.MS_NODEV, "noexec": unix.MS_NOEXEC,
				"noatime": unix.MS_NOATIME, "nodiratime": unix.MS_NODIRATIME, "relatime": unix.MS_RELATIME}[o]
		}
		if err := unix.Mount("", mp, "", flags, ""); err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) {
				continue // gone, or covered by a later mount at or above it
			}
			return nil, fmt.Errorf("%s: %w", mp, err)
		}
		sealed = append(sealed, mp)
	}
	return sealed, nil
}

// parseMountInfo reads one line of /proc/PID/mountinfo: the mount point,
// its per-mount options and the filesystem type.
func parseMountInfo(line string) (mountPoint, opts, fstype string, ok bool) {
	head, tail, found := strings.Cut(line, " - ")
	f, t := strings.Fields(head), strings.Fields(tail)
	if !found || len(f) < 6 || len(t) < 1 {
		return "", "", "", false
	}
	return unescapeMount(f[4]), f[5], t[0], true
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// overlay mounts on d the folder open as lower, with a tmpfs (opts) for what
// is written.
func overlay(d string, lower int, opts string) error {
	if err := unix.Mount("tmpfs", d, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return err
	}
	for _, sub := range []string{"upper", "work"} {
		if err := os.Mkdir(filepath.Join(d, sub), 0o755); err != nil {
			return err
		}
	}
	if err := os.Chmod(filepath.Join(d, "upper"), 0o1777|os.ModeSticky); err != nil {
		return err
	}
	o := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", fdPath(lower), filepath.Join(d, "upper"), filepath.Join(d, "work"))
	return unix.Mount("overlay", d, "overlay", unix.MS_NOSUID|unix.MS_NODEV, o)
}

func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// privateTmpUse is the bytes held in the private tmpfs of the engine's
// processes pids: every tmpfs at privateTmpFolders seen by one of them
// that is not the arbiter's own, each counted once.
func privateTmpUse(pids []int) int64 {
	own := map[uint64]bool{}
	for _, d := range privateTmpFolders {
		var st unix.Stat_t
		if unix.Stat(d, &st) == nil {
			own[st.Dev] = true
		}
	}
	selfNS, _ := os.Readlink("/proc/self/ns/mnt")
	seenNS := map[string]bool{selfNS: true}
	var total int64
	for _, pid := range pids {
		root := "/proc/" + strconv.Itoa(pid)
		ns, err := os.Readlink(root + "/ns/mnt")
		if err != nil || seenNS[ns] {
			continue
		}
		for _, d := range privateTmpFolders {
			var st unix.Stat_t
			var fs unix.Statfs_t
			p := root + "/root" + d
			if unix.Stat(p, &st) != nil {
				continue // gone, or not ours to look into (a sandbox launcher): another process of the namespace may be
			}
			seenNS[ns] = true
			if own[st.Dev] || unix.Statfs(p, &fs) != nil ||
				fs.Type != unix.TMPFS_MAGIC && fs.Type != unix.OVERLAYFS_SUPER_MAGIC {
				continue
			}
			own[st.Dev] = true
			total += int64(fs.Blocks-fs.Bfree) * fs.Bsize
		}
	}
	return total
}

// startIn starts cmd on the processors cpus (all when none), in a mount
// namespace with its own /tmp and /dev/shm when it will be in a PID
// namespace made by root (ns is pidNS) and the kernel has not refused that
// before. scratch says cmd.Dir is the engine's own scratch folder
// (startWithPrivateTmp).
func startIn(ns namespaces, tmpMax int64, cpus []int, cmd *exec.Cmd, scratch bool) error {
	start := func() error { return affinity.Start(cpus, cmd.Start) } // whatever thread starts it
	if ns != pidNS || privateTmpRefused.Load() {
		return start()
	}
	refused, err := startWithPrivateTmp(tmpMax, cmd, scratch, start)
	if refused != nil {
		if !errors.Is(refused, errThisStart) {
			privateTmpRefused.Store(true)
		}
		return start()
	}
	return err
}

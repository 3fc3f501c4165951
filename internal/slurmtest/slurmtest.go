// Package slurmtest starts a real single-node Slurm cluster for tests: its
// own munge daemon, slurmctld and slurmd, in a temporary folder, on free
// loopback ports, with the settings that run on these machines without
// systemd or cgroup delegation (proctrack/linuxproc, task/none). Tests submit
// job arrays to it with sbatch exactly as a user of a university cluster
// would. The node offers 8 CPUs whatever the machine has (config_overrides),
// as a cluster of several nodes would: the tasks of a spread event must all
// run at once.
package slurmtest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Programs the cluster needs, with the Debian packages that ship them.
var programs = map[string]string{
	"munged":    "munge",
	"slurmctld": "slurmctld (slurm-wlm)",
	"slurmd":    "slurmd (slurm-wlm)",
	"sbatch":    "slurm-client (slurm-wlm)",
	"scontrol":  "slurm-client (slurm-wlm)",
	"sinfo":     "slurm-client (slurm-wlm)",
}

// Cluster is a running single-node cluster.
type Cluster struct {
	Dir  string
	Conf string // the slurm.conf clients must be given (SLURM_CONF)
	t    testing.TB
}

// Start brings a cluster up and registers its shutdown with t.Cleanup. It
// skips the test, saying what is missing, where the cluster cannot run: no
// Slurm or munge programs, or not root (slurmd must start jobs as any user).
func Start(t testing.TB) *Cluster {
	t.Helper()
	var missing []string
	for prog, pkg := range programs {
		if _, err := exec.LookPath(prog); err != nil {
			missing = append(missing, prog+" (Debian package "+pkg+")")
		}
	}
	if len(missing) > 0 {
		t.Skipf("a Slurm cluster needs %s; .ci/run installs slurm-wlm and munge as root", strings.Join(missing, ", "))
	}
	if os.Geteuid() != 0 {
		t.Skip("a Slurm cluster needs root: slurmd runs jobs as their submitting user")
	}
	// Slurm's folders must be reachable by its daemons: not a 0700 test dir
	// under another user's home. /tmp is.
	dir, err := os.MkdirTemp("", "arena-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), t: t}
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var procs []*exec.Cmd
	t.Cleanup(func() {
		for i := len(procs) - 1; i >= 0; i-- {
			procs[i].Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			done := make(chan struct{})
			go func() { p.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				p.Process.Kill()
				<-done
			}
		}
		os.RemoveAll(dir)
	})
	start := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		log, err := os.Create(filepath.Join(dir, "log", filepath.Base(name)+".out"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = log, log
		cmd.Env = c.Env()
		// Their own process group: a test's Ctrl-C must not reach them
		// before Cleanup stops them in order.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting %s: %v", name, err)
		}
		procs = append(procs, cmd)
	}

	key := make([]byte, 1024)
	if f, err := os.Open("/dev/urandom"); err == nil {
		f.Read(key)
		f.Close()
	}
	keyFile := filepath.Join(dir, "munge", "key")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge", "sock")
	start("munged", "--foreground", "--force", "--key-file="+keyFile, "--socket="+sock,
		"--pid-file="+filepath.Join(dir, "munge", "pid"), "--seed-file="+filepath.Join(dir, "munge", "seed"),
		"--log-file="+filepath.Join(dir, "log", "munged.log"))
	if err := waitFor(10*time.Second, func() error { _, err := os.Stat(sock); return err }); err != nil {
		t.Fatalf("munged did not create its socket: %v\n%s", err, c.Logs())
	}

	ctldPort, dPort := freePort(t), freePort(t)
	conf := fmt.Sprintf(`ClusterName=arena
SlurmctldHost=localhost
AuthType=auth/munge
AuthInfo=socket=%[1]s/munge/sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/slurmd.pid
SlurmctldLogFile=%[1]s/log/slurmctld.log
SlurmdLogFile=%[1]s/log/slurmd.log
SlurmUser=root
ReturnToService=2
MaxArraySize=1001
SchedulerParameters=sched_interval=1
MessageTimeout=20
SlurmdParameters=config_overrides
NodeName=localhost CPUs=8 RealMemory=1000 State=UNKNOWN
PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, dir, ctldPort, dPort)
	if err := os.WriteFile(c.Conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.conf"), []byte("CgroupPlugin=cgroup/v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start("slurmctld", "-D", "-i", "-f", c.Conf)
	start("slurmd", "-D", "-f", c.Conf, "-N", "localhost")
	err = waitFor(60*time.Second, func() error {
		out, err := c.Command("sinfo", "-h", "-o", "%T").Output()
		if err != nil {
			return err
		}
		if s := strings.TrimSpace(string(out)); s != "idle" {
			return fmt.Errorf("node is %q", s)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the Slurm node did not come up: %v\n%s", err, c.Logs())
	}
	return c
}

// Env is the environment for Slurm's clients and daemons.
func (c *Cluster) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.Conf)
}

// Command prepares a Slurm client command (sbatch, scontrol, squeue, ...)
// that talks to this cluster.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.Env()
	return cmd
}

// Submit runs sbatch with args and returns the job id.
func (c *Cluster) Submit(args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := c.Command("sbatch", append([]string{"--parsable"}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	return id, nil
}

// Wait waits until no task of job is pending or running, or timeout.
func (c *Cluster) Wait(job string, timeout time.Duration) error {
	return waitFor(timeout, func() error {
		out, err := c.Command("squeue", "-h", "-j", job, "-o", "%i %T").Output()
		if err != nil {
			// squeue forgets a finished job after MinJobAge; an error
			// naming an invalid job id means it is gone.
			return nil
		}
		if s := strings.TrimSpace(string(out)); s != "" {
			return errors.New("still queued or running: " + s)
		}
		return nil
	})
}

// Logs is the daemons' logs, for a failure message.
func (c *Cluster) Logs() string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(c.Dir, "log", "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if len(data) > 4000 {
			data = data[len(data)-4000:]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), data)
	}
	return b.String()
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitFor(timeout time.Duration, ready func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

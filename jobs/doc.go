// Package jobs holds the job files that run an arena batch on a cluster's
// scheduler: slurm-array.sh (a Slurm job array) and k8s-indexed-job.yaml (a
// Kubernetes Indexed Job with a shared volume); and those that spread an
// event's games over the tasks of one: slurm-event.sh and
// k8s-event-job.yaml (docs/leagues.md). It has no code; its tests
// check the files: the manifest against the batch/v1 Job API's fields, and
// the Slurm script by running it on a real cluster (cmd/arena's Slurm test).
package jobs

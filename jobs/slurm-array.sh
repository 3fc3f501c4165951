#!/bin/sh
# One shard of an arena batch per task of a Slurm job array.
#
#   sbatch --array=0-7 jobs/slurm-array.sh -games 20000 -seed 1 -order random \
#       -opening-policy arbiter-opens -sample format=bin_lz4 NEW=./pbrain-new OLD=./pbrain-old
#   arena merge out/batch          # once every task has finished
#
# The arguments are `arena match`'s (the engines last); the script adds
# -shard auto (the shard is the task's place in the array, whatever number
# the array starts from) and -out "$BATCH". Every task must see the same
# $BATCH folder (a shared file system) and get the same arguments, with a
# fixed -seed: the batch is a function of (command, seed). A task the
# scheduler requeues (node failure, preemption; --requeue below) runs this
# same command again and continues its shard from its journal.
#
# Environment: ARENA, the arena binary (default: arena on PATH); BATCH, the
# batch folder (default out/batch, relative to where sbatch was run).
#SBATCH --job-name=arena-batch
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=arena-batch-%A_%a.out
set -eu
exec "${ARENA:-arena}" match -quiet -shard auto -out "${BATCH:-out/batch}" "$@"

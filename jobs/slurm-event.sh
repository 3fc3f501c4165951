#!/bin/sh
# One task of an arena event spread over a Slurm job array: the tasks share
# the event's output folder and play its games between them (docs/leagues.md).
#
#   job=$(sbatch --parsable --array=0-7 jobs/slurm-event.sh configs/gomocup-league.toml)
#   sbatch --dependency=afterok:$job --wrap "arena merge out/gomocup-freestyle"
#
# The argument is the event's config (and any `arena run` flags before it);
# the script adds -shard auto: the task's place in the array, whatever number
# the array starts from. Task K plays in OUTPUT/shard-K-of-N the games of the
# pairings dealt to it (a mini-match whole, both engines on its node), each
# game when the game before it of each of its engines is journaled by
# whichever task played it, so no engine plays two games at once; task 0
# also pairs each Swiss round once the round before is complete. So every
# task of the array must run at the same time: submit it without a %
# throttle, on a partition with room for all of it (a task waiting longer
# than a minute for another says so in its log). Every task must see the
# same OUTPUT folder (a shared file system: the config's output, relative to
# the config's folder) and the same config. A task the scheduler requeues
# (node failure, preemption; --requeue below) runs this same command again
# and continues from its journal; its unfinished game is played again from
# the start, and no game is counted twice. `arena merge OUTPUT` folds the
# tasks' journals into the event's one journal, standings and tables.
#
# Environment: ARENA, the arena binary (default: arena on PATH).
#SBATCH --job-name=arena-event
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=arena-event-%A_%a.out
set -eu
exec "${ARENA:-arena}" run -quiet -shard auto "$@"

# shellcheck shell=bash
# The launcher logic shared by slurm/levelforge.sbatch and slurm/levelforge-array.sbatch:
# sourced by them, not run. It defines
#
#   levelforge_slurm_setup                cd to the submit directory, choose the binary and the
#                                         launcher, allow Open MPI to run as root
#   levelforge_slurm_run RUN ARGS...      `levelforge run RUN ARGS... --resume` on every task of
#                                         the allocation (after a requeue, with a checkpoint
#                                         beside the output: `levelforge resume OUTPUT`, which
#                                         needs nothing retyped), signals and requeue as below;
#                                         returns the job's exit code
#   levelforge_slurm_output RUN ARGS...   the result file the run writes: the last -o/--output
#                                         or --set output=, else the config's output
#   levelforge_slurm_shard_file OUT I N   the file `--shard I/N` writes instead of OUT
#
# Environment: LEVELFORGE_LAUNCHER=mpirun (default) | srun, LEVELFORGE_BIN (default:
# build/runner/cli/levelforge under the submit directory, else `levelforge` on PATH),
# LEVELFORGE_SIGNAL_HOLD (seconds, default 10: below).
#
# Signals. The scripts ask for `--signal=B:USR1@SECONDS`: before the time limit Slurm sends
# SIGUSR1 to the batch shell only. The launcher runs in the background and the batch shell
# waits for it; on SIGUSR1 (or SIGTERM) the shell sends SIGUSR1 to the launcher: mpirun and
# srun both pass it on to every rank (mpirun would answer SIGTERM by killing the ranks). On
# the signal levelforge checkpoints and every rank exits with 75 ("checkpointed, resume me").
# Exit 75 makes the script run `scontrol requeue JOB`: the job goes back to the queue under
# the same job id and, when it runs again, continues from the checkpoint with `levelforge
# resume OUTPUT` (a first run gets --resume too: resubmitting a stopped job continues it). JOB is ARRAYJOBID_TASKID for an array task: the last task's SLURM_JOB_ID
# equals the array's job id, and requeueing that requeues every task of the array, finished
# ones included. Any other exit code is the job's.
#
# Not after SIGTERM: Slurm sends SIGTERM to every process of a job it ends (scancel, the time
# limit, preemption), and `scontrol requeue` would requeue even a cancelled job, so scancel
# would not cancel. After SIGTERM the job ends with 75 and keeps its checkpoint; the same
# sbatch command (or `scontrol requeue JOB`) resumes it. `scancel --batch --signal=USR1 JOB`
# makes a running job checkpoint and requeue now.
#
# Slurm checks time limits every 30 s and sends the warning up to that much early, so with a
# short time limit it can come in the first seconds of a run, before the launcher has started
# the ranks (mpirun then drops the signal; levelforge itself catches it from its first
# instruction). A SIGUSR1 in the first LEVELFORGE_SIGNAL_HOLD seconds after the launch is
# held until then.
#
# On scancel or the time limit the ranks get Slurm's SIGTERM directly and checkpoint at once.
# Under srun they have Slurm's KillWait (default 30 s) before SIGKILL; under mpirun about 2 s,
# since mpirun answers its own SIGTERM with SIGTERM and then SIGKILL to the ranks,
# odls_base_sigkill_timeout (1 s) apart. Raising that (OMPI_MCA_odls_base_sigkill_timeout=10)
# also delays every exit 75 under mpirun by twice as many seconds.

LEVELFORGE_SLURM_NAME=${LEVELFORGE_SLURM_NAME:-levelforge.sbatch}
LEVELFORGE_EXIT_CHECKPOINTED=75
LEVELFORGE_SIGNAL_HOLD=${LEVELFORGE_SIGNAL_HOLD:-10}

levelforge_slurm_say() { echo "$LEVELFORGE_SLURM_NAME: $*"; }
levelforge_slurm_die() {
  echo "$LEVELFORGE_SLURM_NAME: error: $*" >&2
  exit 2
}

levelforge_slurm_setup() {
  cd "${SLURM_SUBMIT_DIR:-.}" || levelforge_slurm_die "cannot cd to ${SLURM_SUBMIT_DIR:-.}"
  LEVELFORGE_SLURM_BIN=${LEVELFORGE_BIN:-}
  if [[ -z $LEVELFORGE_SLURM_BIN ]]; then
    if [[ -x build/runner/cli/levelforge ]]; then
      LEVELFORGE_SLURM_BIN=build/runner/cli/levelforge
    else
      LEVELFORGE_SLURM_BIN=levelforge
    fi
  fi
  command -v "$LEVELFORGE_SLURM_BIN" >/dev/null ||
    levelforge_slurm_die "no levelforge binary '$LEVELFORGE_SLURM_BIN' (set LEVELFORGE_BIN, or build in $PWD/build)"
  LEVELFORGE_SLURM_LAUNCHER=${LEVELFORGE_LAUNCHER:-mpirun}
  case $LEVELFORGE_SLURM_LAUNCHER in
    srun | mpirun) ;;
    *) levelforge_slurm_die "LEVELFORGE_LAUNCHER must be srun or mpirun, not '$LEVELFORGE_SLURM_LAUNCHER'" ;;
  esac
  if [[ $(id -u) -eq 0 ]]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# The result file of `levelforge run ARGS...` before any --shard suffix: the last -o/--output
# (or --set output=), else the config's `output` as `levelforge validate` reports it.
levelforge_slurm_output() {
  local config=$1 out="" arg next=""
  shift
  local sets=()
  for arg in "$@"; do
    if [[ -n $next ]]; then
      case $next in
        o) out=$arg ;;
        set) [[ $arg == output=* ]] && out=${arg#output=}; sets+=(--set "$arg") ;;
      esac
      next=""
      continue
    fi
    case $arg in
      -o | --output) next=o ;;
      --output=*) out=${arg#--output=} ;;
      -o?*) out=${arg#-o} ;;
      --set) next="set" ;;
      --set=*) arg=${arg#--set=}; [[ $arg == output=* ]] && out=${arg#output=}; sets+=(--set "$arg") ;;
    esac
  done
  if [[ -z $out ]]; then
    out=$("$LEVELFORGE_SLURM_BIN" validate "$config" "${sets[@]}" 2>/dev/null |
      sed -n 's/^output: *//p' | head -n1)
    out=${out#\"}
    out=${out%\"}
  fi
  echo "$out"
}

_levelforge_slurm_signal() {
  local hold
  _levelforge_slurm_signalled=1
  [[ $1 == TERM ]] && _levelforge_slurm_terminated=1
  # A signal before the ranks run would be lost, and Slurm may send the warning seconds
  # after the start (see above).
  hold=$((_levelforge_slurm_started + LEVELFORGE_SIGNAL_HOLD - SECONDS))
  if [[ $1 == USR1 ]] && ((hold > 0)); then
    levelforge_slurm_say "got SIGUSR1 $((SECONDS - _levelforge_slurm_started)) s after the start; holding it $hold s until levelforge is surely running"
    sleep "$hold"
  fi
  levelforge_slurm_say "got SIG$1 at $(date -u +%FT%TZ); asking levelforge to checkpoint (SIGUSR1 to $LEVELFORGE_SLURM_LAUNCHER, pid $_levelforge_slurm_child)"
  kill -USR1 "$_levelforge_slurm_child" 2>/dev/null || true
}

# The levelforge arguments of a job: `run "$@" --resume`, or, for a requeued job whose
# checkpoint is beside its output, `resume OUTPUT` with the options of `"$@"` that `resume`
# takes (-q, --progress-interval): the checkpoint holds the config, overrides and shard.
levelforge_slurm_command() {
  local out shard="" arg next="" options=()
  for arg in "$@"; do
    case $next in
      shard) shard=$arg ;;
      interval) options+=(--progress-interval "$arg") ;;
    esac
    [[ -n $next ]] && { next=""; continue; }
    case $arg in
      --shard) next=shard ;;
      --shard=*) shard=${arg#--shard=} ;;
      --progress-interval) next=interval ;;
      --progress-interval=*) options+=("$arg") ;;
      -q | --quiet) options+=(-q) ;;
    esac
  done
  out=$(levelforge_slurm_output "$@")
  [[ -n $shard && -n $out ]] && out=$(levelforge_slurm_shard_file "$out" "${shard%/*}" "${shard#*/}")
  if ((${SLURM_RESTART_COUNT:-0} > 0)) && [[ -n $out && -d $out.checkpoint ]]; then
    printf '%s\n' resume "$out" "${options[@]}"
  else
    printf '%s\n' run "$@" --resume
  fi
}

# Runs levelforge_slurm_command's command under the launcher on every task of the
# allocation, forwards the checkpoint signals, requeues on exit 75; returns the job's exit
# code.
levelforge_slurm_run() {
  local ranks=${SLURM_NTASKS:-} rc last
  local launch=() command=()
  case $LEVELFORGE_SLURM_LAUNCHER in
    srun) launch=(srun --mpi=pmix) ;;
    mpirun) launch=(mpirun ${ranks:+-n "$ranks"}) ;; # without -n (no sbatch -n): every slot
  esac
  ranks=${ranks:-"(no sbatch -n: as many as the allocation has slots)"}
  levelforge_slurm_say "job ${SLURM_JOB_ID:-?}${SLURM_RESTART_COUNT:+ (restart $SLURM_RESTART_COUNT)} on $(hostname -s), $ranks ranks, $(date -u +%FT%TZ)"
  mapfile -t command < <(levelforge_slurm_command "$@")
  levelforge_slurm_say "${launch[*]} $LEVELFORGE_SLURM_BIN ${command[*]}"

  _levelforge_slurm_signalled=0
  _levelforge_slurm_terminated=0
  trap '_levelforge_slurm_signal USR1' USR1
  trap '_levelforge_slurm_signal TERM' TERM
  _levelforge_slurm_started=$SECONDS
  "${launch[@]}" "$LEVELFORGE_SLURM_BIN" "${command[@]}" &
  _levelforge_slurm_child=$!

  # `wait` returns early (status > 128) when a trapped signal arrives: wait again until the
  # launcher itself has exited. 127 means its status was already collected.
  rc=0
  while :; do
    _levelforge_slurm_signalled=0
    last=0
    wait "$_levelforge_slurm_child" || last=$?
    if ((last == 127)); then break; fi
    rc=$last
    ((_levelforge_slurm_signalled && rc > 128)) || break
  done
  trap - USR1 TERM

  if ((rc == LEVELFORGE_EXIT_CHECKPOINTED)); then
    if [[ -z ${SLURM_JOB_ID:-} ]]; then
      levelforge_slurm_say "checkpointed (exit 75), not under Slurm: run the same command again to resume"
      return "$rc"
    fi
    local job=$SLURM_JOB_ID
    [[ -n ${SLURM_ARRAY_JOB_ID:-} && -n ${SLURM_ARRAY_TASK_ID:-} ]] && job=${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID
    if ((_levelforge_slurm_terminated)); then
      levelforge_slurm_say "checkpointed (exit 75) on SIGTERM: Slurm is ending job $job (scancel, time limit or preemption), so it is not requeued; resume with the same sbatch command or 'scontrol requeue $job'"
      return "$rc"
    fi
    levelforge_slurm_say "checkpointed (exit 75); requeueing job $job to resume"
    if scontrol requeue "$job"; then
      levelforge_slurm_say "requeued job $job; it resumes from the checkpoint when it runs again"
      return "$rc"
    fi
    levelforge_slurm_say "scontrol requeue failed; submit the same sbatch command again to resume"
    return "$rc"
  fi
  if ((_levelforge_slurm_terminated)); then
    levelforge_slurm_say "$LEVELFORGE_SLURM_LAUNCHER exited with $rc after SIGTERM: Slurm is ending the job; a checkpoint, if written, is kept for the same sbatch command to resume"
  else
    levelforge_slurm_say "levelforge exited with $rc at $(date -u +%FT%TZ)"
  fi
  return "$rc"
}

# results/demo.h5 3 8 -> results/demo.shard-3-of-8.h5 (as levelforge names shard files)
levelforge_slurm_shard_file() {
  local out=$1 dir="" base ext=""
  [[ $out == */* ]] && dir=${out%/*}/
  base=${out##*/}
  if [[ $base == ?*.* ]]; then
    ext=.${base##*.}
    base=${base%.*}
  fi
  echo "$dir$base.shard-$2-of-$3$ext"
}

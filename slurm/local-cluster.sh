#!/usr/bin/env bash
# Single-node Slurm cluster on this machine, from Debian 12's packages, for the
# project's tests and for trying levelforge's Slurm path on a laptop.
#
#   slurm/local-cluster.sh start    install what is missing, write the config,
#                                   start munged, slurmctld, slurmd; wait for the node
#   slurm/local-cluster.sh stop     cancel jobs, stop the three daemons (keeps the state dir)
#   slurm/local-cluster.sh status   daemons, sinfo, squeue; exit 0 when the cluster is up
#
# No systemd needed: the daemons are started directly and daemonise themselves;
# pid files and logs live in the state directory
#   ${LEVELFORGE_SLURM_DIR:-/tmp/levelforge-slurm}   (log/, run/, ctld/, slurmd/)
# The config is written to /etc/slurm/slurm.conf, where every Slurm command looks,
# so plain `sinfo`, `sbatch`, `srun` work in any shell after `start`. A slurm.conf that
# this script did not write is first saved as /etc/slurm/slurm.conf.before-levelforge.
# start/stop need root (packages, munge key, SlurmUser=root); status does not.
#
# Environment: LEVELFORGE_SLURM_DIR (state dir), LEVELFORGE_SLURM_TIMEOUT (seconds
# to wait for the node to become idle, default 60).
set -euo pipefail

STATE_DIR=${LEVELFORGE_SLURM_DIR:-/tmp/levelforge-slurm}
TIMEOUT=${LEVELFORGE_SLURM_TIMEOUT:-60}
CONF=/etc/slurm/slurm.conf
CONF_BACKUP=/etc/slurm/slurm.conf.before-levelforge
MARKER="# Written by levelforge slurm/local-cluster.sh"
PACKAGES=(slurmctld slurmd slurm-client munge procps) # procps: pgrep
MUNGE_KEY=/etc/munge/munge.key
NODE=$(hostname -s)

# The daemons and clients started here must read our config, whatever the caller set.
CALLER_SLURM_CONF=${SLURM_CONF-}
export SLURM_CONF=$CONF

say() { echo "local-cluster: $*"; }
die() { echo "local-cluster: error: $*" >&2; exit 1; }

need_root() {
  ((EUID == 0)) || die "'$1' needs root (packages, munge key, SlurmUser=root); run it with sudo"
}

# pid of a running daemon from its pid file, checked against its command name; empty if none
pid_of() {
  local name=$1 file=$2 pid
  [[ -r $file ]] || return 0
  pid=$(tr -dc '0-9' <"$file")
  [[ -n $pid && -r /proc/$pid/comm && $(</proc/"$pid"/comm) == "$name" ]] && echo "$pid"
  return 0
}

# running (not zombie) processes called exactly NAME; a PID 1 that does not reap (some
# containers) leaves the daemons' exited fork parents behind as zombies of the same name
live_pids() {
  local pid state
  for pid in $(pgrep -x "$1" || true); do
    state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
    [[ -n $state && $state != [ZX] ]] && echo "$pid"
  done
  return 0
}

ctld_pid() { pid_of slurmctld "$STATE_DIR/run/slurmctld.pid"; }
slurmd_pid() { pid_of slurmd "$STATE_DIR/run/slurmd.pid"; }
munged_pid() { pid_of munged "$STATE_DIR/run/munged.pid"; }
own_pid() { pid_of "$1" "$STATE_DIR/run/$1.pid"; } # munged, slurmctld or slurmd
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }

node_state() {
  command -v sinfo >/dev/null || return 0
  timeout 10 sinfo -h -N -n "$NODE" -o %T 2>/dev/null | head -n1 || true
}

log_tails() {
  local f
  for f in "$STATE_DIR"/log/munge/munged.log "$STATE_DIR"/log/slurmctld.log "$STATE_DIR"/log/slurmd.log; do
    [[ -f $f ]] || continue
    echo "----- last lines of $f" >&2
    tail -n 20 "$f" >&2
  done
}

fail() {
  echo "local-cluster: error: $*" >&2
  log_tails
  exit 1
}

# start/stop serialise on fd 9; the daemons are started with 9>&- so that they do not
# inherit the lock and hold it for as long as they run
lock_state_dir() {
  mkdir -p "$STATE_DIR"
  exec 9>"$STATE_DIR/lock"
  flock -w 120 9 || die "another local-cluster.sh has held $STATE_DIR/lock for 2 minutes"
}

install_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  ((${#missing[@]} == 0)) && return 0
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}

start_munge() {
  if munge_works; then
    say "munged already running"
    return 0
  fi
  id munge >/dev/null 2>&1 || die "user 'munge' is missing (package munge broken?)"
  install -d -m 0700 -o munge -g munge /etc/munge /var/lib/munge
  install -d -m 0755 -o munge -g munge /run/munge "$STATE_DIR/log/munge"
  if [[ ! -s $MUNGE_KEY ]]; then
    say "creating munge key $MUNGE_KEY"
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$MUNGE_KEY"
    else
      dd if=/dev/urandom of="$MUNGE_KEY" bs=1024 count=1 status=none
    fi
  fi
  chown munge:munge "$MUNGE_KEY"
  chmod 0400 "$MUNGE_KEY"
  rm -f "$STATE_DIR/run/munged.pid"
  # munged's pid file goes into a directory munge owns; run/munged.pid points at it
  runuser -u munge -- /usr/sbin/munged \
    --log-file="$STATE_DIR/log/munge/munged.log" \
    --pid-file="$STATE_DIR/log/munge/munged.pid" 9>&- ||
    fail "munged did not start"
  ln -sf "$STATE_DIR/log/munge/munged.pid" "$STATE_DIR/run/munged.pid"
  local i
  for ((i = 0; i < 50; i++)); do
    munge_works && { say "munged started (pid $(munged_pid))"; return 0; }
    sleep 0.2
  done
  fail "munged started but munge/unmunge does not work"
}

write_config() {
  local node_line addr_ctld="" addr_node="" tmp
  node_line=$(slurmd -C 2>/dev/null | grep -m1 '^NodeName=') ||
    die "'slurmd -C' printed no NodeName line"
  # slurmd -C names the node by the short host name; keep its CPU layout and memory
  node_line="NodeName=$NODE ${node_line#NodeName=* }"
  if ! getent hosts "$NODE" >/dev/null; then
    addr_ctld="(127.0.0.1)"
    addr_node=" NodeAddr=127.0.0.1"
  fi
  tmp=$(mktemp "$STATE_DIR/slurm.conf.XXXXXX")
  cat >"$tmp" <<EOF
$MARKER; rewritten on every start.
# State, logs and pid files: $STATE_DIR
ClusterName=levelforge-local
SlurmctldHost=$NODE$addr_ctld
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$STATE_DIR/ctld
SlurmdSpoolDir=$STATE_DIR/slurmd
SlurmctldPidFile=$STATE_DIR/run/slurmctld.pid
SlurmdPidFile=$STATE_DIR/run/slurmd.pid
SlurmctldLogFile=$STATE_DIR/log/slurmctld.log
SlurmdLogFile=$STATE_DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
EnforcePartLimits=ALL
# Quick requeues for tests: a requeued job may start again cred_expire seconds after it was
# requeued (Slurm's default 120), and the scheduler looks at pending jobs every
# sched_interval (default 60) / bf_interval (default 30) seconds.
AuthInfo=cred_expire=5
SchedulerParameters=sched_interval=5,bf_interval=5
$node_line$addr_node State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  chmod 0644 "$tmp"
  if [[ -f $CONF ]] && cmp -s "$tmp" "$CONF"; then
    rm -f "$tmp"
    return 1 # unchanged
  fi
  mkdir -p "$(dirname "$CONF")"
  if [[ -f $CONF ]] && ! grep -qF "$MARKER" "$CONF"; then
    if [[ -e $CONF_BACKUP ]]; then
      cp -p "$CONF" "$CONF_BACKUP.$(date +%Y%m%d%H%M%S)"
    else
      cp -p "$CONF" "$CONF_BACKUP"
    fi
    say "saved the existing $CONF as $CONF_BACKUP"
  fi
  mv -f "$tmp" "$CONF"
  say "wrote $CONF (node: ${node_line#NodeName=})"
  return 0
}

stop_pids() { # "name:pid"...: TERM all, wait up to 10 s, then KILL what is left
  local item pid i alive
  for item in "$@"; do kill -TERM "${item#*:}" 2>/dev/null || true; done
  for ((i = 0; i < 100; i++)); do
    alive=0
    for item in "$@"; do [[ -d /proc/${item#*:} ]] && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  for item in "$@"; do
    pid=${item#*:}
    if [[ -d /proc/$pid ]]; then
      kill -KILL "$pid" 2>/dev/null || true
      say "killed ${item%%:*} (pid $pid) after 10 s"
    else
      say "stopped ${item%%:*} (pid $pid)"
    fi
  done
}

stop_slurm_daemons() {
  local pid name list=()
  pid=$(slurmd_pid); [[ -n $pid ]] && list+=("slurmd:$pid")
  pid=$(ctld_pid); [[ -n $pid ]] && list+=("slurmctld:$pid")
  # fallback: Slurm daemons without (or with stale) pid files, and job step daemons
  for name in slurmd slurmctld slurmstepd; do
    for pid in $(live_pids "$name"); do
      [[ " ${list[*]} " == *":$pid "* ]] || list+=("$name:$pid")
    done
  done
  ((${#list[@]} == 0)) || stop_pids "${list[@]}"
  rm -f "$STATE_DIR/run/slurmd.pid" "$STATE_DIR/run/slurmctld.pid"
}

cmd_start() {
  need_root start
  local t0=$SECONDS conf_changed=0 pid i state resumed=0 name
  lock_state_dir
  install_packages
  mkdir -p "$STATE_DIR"/{log,run,ctld,slurmd}
  start_munge
  write_config && conf_changed=1
  if ((conf_changed)) && [[ -n $(live_pids slurmctld)$(live_pids slurmd) ]]; then
    say "config changed; restarting slurmctld and slurmd"
    stop_slurm_daemons
  fi
  for name in slurmctld slurmd; do
    if [[ -z $(own_pid "$name") && -n $(live_pids "$name") ]]; then
      die "a $name this script did not start is running (pid $(live_pids "$name" | head -n1));" \
        "stop it first ('$0 stop' stops it, or 'systemctl stop $name')"
    fi
  done

  if pid=$(ctld_pid) && [[ -n $pid ]]; then
    say "slurmctld already running (pid $pid)"
  else
    slurmctld 9>&- || fail "slurmctld did not start"
    for ((i = 0; i < 50; i++)); do
      scontrol ping 2>/dev/null | grep -q 'is UP' && break
      sleep 0.2
    done
    scontrol ping 2>/dev/null | grep -q 'is UP' || fail "slurmctld does not answer 'scontrol ping'"
    say "slurmctld started (pid $(ctld_pid))"
  fi
  if pid=$(slurmd_pid) && [[ -n $pid ]]; then
    say "slurmd already running (pid $pid)"
  else
    slurmd 9>&- || fail "slurmd did not start"
    for ((i = 0; i < 50; i++)); do
      [[ -n $(slurmd_pid) ]] && break
      sleep 0.2
    done
    [[ -n $(slurmd_pid) ]] || fail "slurmd exited right after starting"
    say "slurmd started (pid $(slurmd_pid))"
  fi

  for ((i = 0; i < TIMEOUT * 2; i++)); do
    state=$(node_state)
    case $state in
      idle | mixed | allocated | completing) break ;;
      *drain* | down*)
        # ReturnToService=2 clears DOWN when slurmd registers; a DRAIN left in the saved
        # state is not cleared by that, so resume the node once (at once when drained)
        if ((!resumed)) && [[ $state == *drain* ]] || ((!resumed && i >= 6)); then
          say "node $NODE is '$state'; resuming it"
          scontrol update NodeName="$NODE" State=RESUME 2>/dev/null || true
          resumed=1
        fi
        ;;
    esac
    sleep 0.5
  done
  case $state in
    idle | mixed | allocated | completing) ;;
    *) fail "node $NODE not idle after ${TIMEOUT}s (state: '${state:-none}')" ;;
  esac
  say "cluster up in $((SECONDS - t0)) s: node $NODE $state, partition debug; config $CONF"
}

cmd_stop() {
  need_root stop
  local ids pid i
  lock_state_dir
  if [[ -n $(ctld_pid) ]] && command -v squeue >/dev/null; then
    ids=$(timeout 10 squeue -h -o %A 2>/dev/null || true)
    if [[ -n $ids ]]; then
      say "cancelling jobs: ${ids//$'\n'/ }"
      # shellcheck disable=SC2086
      scancel $ids 2>/dev/null || true
      for ((i = 0; i < 20; i++)); do
        [[ -z $(timeout 10 squeue -h -t R,CG -o %A 2>/dev/null) ]] && break
        sleep 0.5
      done
    fi
  fi
  stop_slurm_daemons
  # munged only when this script started it: a system munged (systemd) stays
  pid=$(munged_pid)
  if [[ -n $pid ]]; then
    stop_pids "munged:$pid"
  fi
  rm -f "$STATE_DIR/run/munged.pid"
  say "stopped; state kept in $STATE_DIR"
}

cmd_status() {
  local up=0 pid name state
  for name in munged slurmctld slurmd; do
    pid=$(own_pid "$name")
    if [[ -n $pid ]]; then
      say "$name running (pid $pid)"
    elif pid=$(live_pids "$name" | head -n1) && [[ -n $pid ]]; then
      say "$name running (pid $pid, not started by this script)"
    else
      say "$name not running"
      up=1
    fi
  done
  if ! command -v sinfo >/dev/null; then
    say "Slurm is not installed; run '$0 start'"
    return 1
  fi
  if [[ -n $CALLER_SLURM_CONF && $CALLER_SLURM_CONF != "$CONF" ]]; then
    say "warning: your SLURM_CONF=$CALLER_SLURM_CONF, so your Slurm commands do not use $CONF"
  fi
  if [[ -n $(live_pids slurmctld) ]]; then
    timeout 10 sinfo || up=1
    timeout 10 squeue || up=1
    state=$(node_state)
    case $state in
      idle | mixed | allocated | completing) ;;
      *) say "node $NODE is '${state:-unknown}'"; up=1 ;;
    esac
  fi
  if ((up == 0)); then say "cluster is up"; else say "cluster is not up"; fi
  return "$up"
}

case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac

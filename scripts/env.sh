# Sourced by the scripts and by hand: the settings the MPI library needs on
# this machine (run as root in a container, beyond the core count, its
# one-sided component), from scripts/mpi-libraries.conf, for the library
# named by EFFBENCH_MPI (openmpi, mpich, openmpi5, mpich5, impi: its bin/
# then comes first on PATH) or else the one whose mpiexec comes first on PATH.
# Exports EFFBENCH_MPI (the tests' library) and unsets the other libraries'
# settings (Open MPI 4.1's OMPI_MCA_osc=pt2pt stops Open MPI 5 in MPI_Init).
_eb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_eb_conf=$_eb_root/scripts/mpi-libraries.conf

# the absolute path of a conf path: relative ones are the checkout's
_eb_abs() { case $1 in /*) echo "$1" ;; */*) echo "$_eb_root/$1" ;; *) command -v "$1" || true ;; esac; }

if [ -z "${EFFBENCH_MPI:-}" ]; then
  _eb_first=$(readlink -f "$(command -v mpiexec)" 2>/dev/null)
  while read -r _eb_lib _eb_key _eb_val _; do
    if [ "${_eb_lib:0:1}" = "#" ] || [ "$_eb_key" != mpiexec ]; then continue; fi
    _eb_exec=$(_eb_abs "$_eb_val")
    if [ -n "$_eb_first" ] && [ -n "$_eb_exec" ] && [ "$(readlink -f "$_eb_exec")" = "$_eb_first" ]; then
      EFFBENCH_MPI=$_eb_lib
      break
    fi
  done < "$_eb_conf"
fi

if [ -z "${EFFBENCH_MPI:-}" ]; then
  echo "scripts/env.sh: mpiexec on PATH ($(command -v mpiexec || echo none)) is none of" \
       "scripts/mpi-libraries.conf's libraries: no settings (set EFFBENCH_MPI)" >&2
elif ! grep -q "^$EFFBENCH_MPI " "$_eb_conf"; then
  echo "scripts/env.sh: EFFBENCH_MPI=$EFFBENCH_MPI is not a library of $_eb_conf" >&2
else
  export EFFBENCH_MPI
  _eb_prefix=$(awk -v l="$EFFBENCH_MPI" '$1 == l && $2 == "prefix" { print $3 }' "$_eb_conf")
  _eb_prefix=$(_eb_abs "$_eb_prefix")
  # the installed libraries' own folders; Debian's are on PATH already
  case $_eb_prefix in "$_eb_root"/*) export PATH="$_eb_prefix/bin:$PATH" ;; esac
  while read -r _eb_lib _eb_key _eb_val _; do
    if [ "$_eb_key" = env ] && [ "$_eb_lib" != "$EFFBENCH_MPI" ] && [ "${_eb_lib:0:1}" != "#" ]; then unset "${_eb_val%%=*}"; fi
  done < "$_eb_conf"
  while read -r _eb_lib _eb_key _eb_val _; do
    if [ "$_eb_key" = env ] && [ "$_eb_lib" = "$EFFBENCH_MPI" ]; then
      export "${_eb_val//@prefix/$_eb_prefix}"
    fi
  done < "$_eb_conf"
fi
unset _eb_root _eb_conf _eb_first _eb_lib _eb_key _eb_val _eb_exec _eb_prefix
unset -f _eb_abs

#define _GNU_SOURCE /* sched_getaffinity, getcpu */
#include "core/topology.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef EB_HAVE_HWLOC
#include <hwloc.h>

static hwloc_topology_t topo;
static int topo_state; /* 0: not read yet, 1: read, -1: failed */

/* hwloc's plugins, which its first topology_init dlopens with the libraries they link
 * (Debian: PCI, OpenCL, GL with X11, libxml2): about 3 MiB more peak memory per rank, more
 * than osu_bw's whole buffers at small sizes (docs/placement.md).  The record needs packages,
 * cores, PUs and NUMA nodes, which hwloc's built-in Linux backend finds (and its built-in XML
 * reader reads a HWLOC_XMLFILE).  A user's own HWLOC_PLUGINS_BLACKLIST is kept. */
#define UNNEEDED_PLUGINS "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_xml_libxml,hwloc_cuda," \
                         "hwloc_nvml,hwloc_rsmi,hwloc_levelzero"

static int init_without_plugins(hwloc_topology_t *t)
{
    int set = getenv("HWLOC_PLUGINS_BLACKLIST") == NULL;
    if (set)
        setenv("HWLOC_PLUGINS_BLACKLIST", UNNEEDED_PLUGINS, 0);
    int rc = hwloc_topology_init(t);
    if (set) /* read once, at the first init: the rest of the process never sees it */
        unsetenv("HWLOC_PLUGINS_BLACKLIST");
    return rc;
}

static hwloc_topology_t topology(void)
{
    if (topo_state == 0) {
        topo_state = -1;
        if (init_without_plugins(&topo) == 0) {
            /* packages, cores, PUs and NUMA nodes are all it needs: no caches (no I/O
             * objects either, hwloc's default), a faster load on a large node */
            hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
            hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
#if HWLOC_API_VERSION >= 0x00020100
            /* hwloc's x86 backend binds the loading thread to every PU in turn to run
             * CPUID: each rank ends its load on the last PU, and the ranks of a node queue
             * there until the scheduler spreads them again, tens of ms into the first
             * measurement (osu_barrier on 4 ranks over 2 cores: 7.7 us against 3.7, issue
             * 38).  Linux's sysfs, which the linux backend reads, gives all the record needs. */
            hwloc_topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
            if (hwloc_topology_load(topo) == 0)
                topo_state = 1;
            else
                hwloc_topology_destroy(topo);
        }
    }
    return topo_state == 1 ? topo : NULL;
}

/* The binding as the OS reports it (sched_getaffinity: what the launcher set),
 * in hwloc's bitmap of OS CPU numbers, which a synthetic or XML topology also
 * numbers its PUs by. */
static hwloc_bitmap_t os_binding(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return NULL;
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            hwloc_bitmap_set(b, (unsigned)c);
    return b;
}

/* The objects of one type whose CPUs meet `cpus`: their logical or OS
 * indexes as a range list in out; -1 when it does not fit. */
static int objects_meeting(hwloc_topology_t t, hwloc_obj_type_t type, int os_index,
                           hwloc_const_bitmap_t cpus, char *out, size_t n)
{
    hwloc_bitmap_t ids = hwloc_bitmap_alloc();
    hwloc_obj_t o = NULL;
    while ((o = hwloc_get_next_obj_by_type(t, type, o)) != NULL)
        if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, cpus))
            hwloc_bitmap_set(ids, os_index ? o->os_index : o->logical_index);
    int w = hwloc_bitmap_list_snprintf(out, n, ids);
    hwloc_bitmap_free(ids);
    if (w < 0 || (size_t)w >= n) {
        out[0] = '\0';
        return -1;
    }
    return 0;
}

static void hwloc_place(eb_rank_topo *t, int kernel_numa)
{
    hwloc_topology_t tp = topology();
    hwloc_bitmap_t bound = os_binding();
    if (!tp || !bound) { /* no topology: the kernel's NUMA node of the CPU */
        t->cpu_numa = kernel_numa;
        hwloc_bitmap_free(bound);
        return;
    }
    int bad = objects_meeting(tp, HWLOC_OBJ_CORE, 0, bound, t->cores, sizeof t->cores);
    bad |= objects_meeting(tp, HWLOC_OBJ_PACKAGE, 1, bound, t->sockets, sizeof t->sockets);
    bad |= objects_meeting(tp, HWLOC_OBJ_NUMANODE, 1, bound, t->numa, sizeof t->numa);
    t->known = !bad && t->cores[0] && t->sockets[0];
    if (t->cpu >= 0) {
        hwloc_bitmap_only(bound, (unsigned)t->cpu);
        char one[16];
        if (objects_meeting(tp, HWLOC_OBJ_NUMANODE, 1, bound, one, sizeof one) == 0 && one[0]
            && !strchr(one, ',') && !strchr(one, '-'))
            t->cpu_numa = atoi(one);
    }
    hwloc_bitmap_free(bound);
}

#endif

void eb_rank_topo_get(eb_rank_topo *t)
{
    memset(t, 0, sizeof *t);
    t->cpu = t->cpu_numa = -1;
    unsigned cpu = 0, node = 0;
    int kernel_numa = -1;
    if (getcpu(&cpu, &node) == 0) {
        t->cpu = (int)cpu;
        kernel_numa = (int)node;
    }
#ifdef EB_HAVE_HWLOC
    hwloc_place(t, kernel_numa);
#else
    t->cpu_numa = kernel_numa; /* no hwloc (SMPI builds): the kernel's NUMA node of the CPU */
#endif
}

void eb_json_int_list(eb_json *j, const char *key, const char *ranges)
{
    if (!ranges[0]) {
        eb_json_null(j, key);
        return;
    }
    eb_json_array(j, key);
    const char *p = ranges;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p)
            break; /* not a number: the list ends (hwloc writes only numbers and ranges) */
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long v = a; v <= b; v++)
            eb_json_int(j, NULL, v);
        p = *end == ',' ? end + 1 : end + strlen(end);
    }
    eb_json_close(j);
}

void eb_topology_json(eb_json *j)
{
#ifndef EB_HAVE_HWLOC
    eb_json_null(j, "topology");
#else
    hwloc_topology_t tp = topology();
    if (!tp) {
        eb_json_null(j, "topology");
        return;
    }
    char source[512];
    const char *syn = getenv("HWLOC_SYNTHETIC"), *xml = getenv("HWLOC_XMLFILE");
    if (syn && *syn)
        snprintf(source, sizeof source, "synthetic: %s", syn);
    else if (xml && *xml)
        snprintf(source, sizeof source, "xml: %s", xml);
    else
        snprintf(source, sizeof source, "this system");
    eb_json_object(j, "topology");
    eb_json_str(j, "hwloc", HWLOC_VERSION); /* the version built against */
    eb_json_str(j, "source", source);
    eb_json_int(j, "packages", hwloc_get_nbobjs_by_type(tp, HWLOC_OBJ_PACKAGE));
    eb_json_int(j, "numa_nodes", hwloc_get_nbobjs_by_type(tp, HWLOC_OBJ_NUMANODE));
    eb_json_int(j, "cores", hwloc_get_nbobjs_by_type(tp, HWLOC_OBJ_CORE));
    eb_json_int(j, "pus", hwloc_get_nbobjs_by_type(tp, HWLOC_OBJ_PU));
    eb_json_close(j);
#endif
}

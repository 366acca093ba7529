/* A SimGrid torus whose nodes are processors beside their routers
 * (docs/simulation.md, "The torus").
 *
 * SimGrid's XML torus (<cluster topology="TORUS" limiter_link=...>) makes every
 * node a router and puts the node's limiter on each hop of a route: a message
 * from A to C through B takes from B's limiter too, as if the limiter were
 * B's router's capacity.  A processor's own limit on what it moves in and out
 * applies at the two ends of a message only.  This platform builds the torus
 * with SimGrid's C++ interface and offers both: each node is a small zone
 * holding the processor's host, its link to the router (node_lat, node_bw;
 * both directions apart) and its own limiter (node_limiter: in and out
 * together, at the ends only); `limiter` is SimGrid's limiter on every node a
 * message passes.  The torus links (lat, bw) join the routers, in SimGrid's
 * dimension-order routing.  With only lat, bw and limiter it is SimGrid's XML
 * torus, to the last digit (docs/simulation.md).
 *
 * smpirun loads it as `-platform libeffbench-torus.so`; its numbers come from
 * the file named by EFFBENCH_TORUS, which platforms/generate.py writes from a
 * spec (`torus:8x8x8,lat=0us,bw=330MBps,node_lat=6us,node_limiter=420.5MBps`),
 * one key and its value (SI units) per line:
 *
 *   dims 8 8 8            lat 0.0              bw 330000000.0      node_lat 6e-06
 *   node_limiter 420500000.0                   speed 1000000000.0
 *   config smpi/bw-factor:0:1                  prop spec torus:8x8x8,...
 *
 * (also limiter and node_bw; a key left out, or 0: none)
 */
#include <simgrid/s4u.hpp>
#include <xbt/asserts.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Torus {
    std::vector<unsigned long> dims;
    double lat = 0, bw = 0, limiter = 0, node_lat = 0, node_bw = 0, node_limiter = 0, speed = 1e9;
    std::vector<std::string> config;
    std::vector<std::pair<std::string, std::string>> props;
};

Torus read_torus(const char *path)
{
    xbt_assert(path && *path, "libeffbench-torus.so: EFFBENCH_TORUS names no parameter file "
                              "(platforms/generate.py writes it; scripts/simulate sets it)");
    std::ifstream in(path);
    xbt_assert(in, "libeffbench-torus.so: cannot read %s", path);
    Torus t;
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        lineno++;
        std::istringstream words(line);
        std::string key;
        if (!(words >> key) || key[0] == '#')
            continue;
        bool ok = true;
        if (key == "dims") {
            unsigned long d;
            while (words >> d)
                t.dims.push_back(d);
        } else if (key == "config") {
            std::string v;
            ok = static_cast<bool>(words >> v);
            t.config.push_back(v);
        } else if (key == "prop") {
            std::string k, v;
            ok = static_cast<bool>(words >> k);
            std::getline(words >> std::ws, v);
            t.props.emplace_back(k, v);
        } else {
            double *field = key == "lat" ? &t.lat : key == "bw" ? &t.bw
                          : key == "node_lat" ? &t.node_lat : key == "node_bw" ? &t.node_bw
                          : key == "limiter" ? &t.limiter : key == "node_limiter" ? &t.node_limiter
                          : key == "speed" ? &t.speed : nullptr;
            ok = field && (words >> *field) && *field >= 0;
        }
        xbt_assert(ok, "libeffbench-torus.so: %s line %d: cannot read '%s'", path, lineno,
                   line.c_str());
    }
    xbt_assert(!t.dims.empty() && t.bw > 0, "libeffbench-torus.so: %s has no dims or no bw", path);
    return t;
}

/* Node `id`: a star zone with the host node-ID, whose route to the router
 * (the zone's gateway) is its own link, then its own limiter. */
std::pair<simgrid::kernel::routing::NetPoint *, simgrid::kernel::routing::NetPoint *>
make_node(const Torus &t, sg4::NetZone *torus, unsigned long id)
{
    std::string name = "node-" + std::to_string(id);
    sg4::NetZone *zone = sg4::create_star_zone(name + "-zone");
    zone->set_parent(torus);
    sg4::Host *host = zone->create_host(name, t.speed);
    simgrid::kernel::routing::NetPoint *router = zone->create_router(name + "-router");
    std::vector<sg4::LinkInRoute> up;
    if (t.node_bw > 0 || t.node_lat > 0) {
        sg4::Link *nic = zone->create_split_duplex_link(name + "-nic", t.node_bw > 0 ? t.node_bw : 1e15)
                             ->set_latency(t.node_lat)
                             ->seal();
        up.emplace_back(nic, sg4::LinkInRoute::Direction::UP);
    }
    if (t.node_limiter > 0) {
        sg4::Link *lim = zone->create_link(name + "-node-limiter", t.node_limiter)
                             ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                             ->seal();
        up.emplace_back(lim);
    }
    /* a rank's messages to itself (an Alltoall's own block), as the XML torus's loopback */
    sg4::Link *loop = zone->create_link(name + "-loopback", 100e9)->seal();
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(loop)}, false);
    /* star zone: the route to every other point of the zone, both ways */
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, up, true);
    zone->add_route(router, nullptr, nullptr, nullptr, {}, true);
    zone->seal();
    return {zone->get_netpoint(), router};
}

} // namespace

extern "C" void load_platform(const sg4::Engine &engine);

void load_platform(const sg4::Engine &)
{
    Torus t = read_torus(std::getenv("EFFBENCH_TORUS"));
    for (const std::string &c : t.config)
        sg4::Engine::set_config(c);
    sg4::NetZone *root = sg4::create_full_zone("effbench");
    for (const auto &[k, v] : t.props)
        root->set_property(k, v);
    auto node = [&t](sg4::NetZone *zone, const std::vector<unsigned long> &, unsigned long id) {
        return make_node(t, zone, id);
    };
    /* SimGrid's torus limiter: on each node a route passes (its router's capacity) */
    std::function<sg4::ClusterCallbacks::ClusterLinkCb> limiter;
    if (t.limiter > 0)
        limiter = [&t](sg4::NetZone *zone, const std::vector<unsigned long> &, unsigned long id) {
            return zone->create_link("node-" + std::to_string(id) + "-limiter", t.limiter)
                ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                ->seal();
        };
    sg4::ClusterCallbacks callbacks(node, {}, limiter);
    sg4::create_torus_zone("machine", root, t.dims, callbacks, t.bw, t.lat,
                           sg4::Link::SharingPolicy::SPLITDUPLEX)
        ->seal();
    root->seal();
}

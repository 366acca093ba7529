/* The node-aware mock-ups (core/mockups_node.c): Hier (among one process per
 * node, then inside each node) and Lane (Träff and Hunold's decomposition:
 * inside the node, then along the lanes of equal node-local rank).  The table
 * of all mock-ups is core/mockups.h's. */
#ifndef EB_MOCKUPS_NODE_H
#define EB_MOCKUPS_NODE_H

#include "core/mockup_types.h"

/* Collective over comm (made once per comm): 1 when every node holds the same
 * number of comm's processes, as the Lane mock-ups need. */
int eb_mockup_nodes_regular(MPI_Comm comm);
int eb_mockup_node_count(void);
const eb_mockup *eb_mockup_node_at(int i);
/* Free the node and lane communicators and the scratch space. */
void eb_mockup_node_release(void);

#endif

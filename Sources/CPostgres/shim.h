#include <libpq-fe.h>

/// The SQLSTATE field code of PQresultErrorField (a char constant Swift imports as a macro it cannot use).
static inline int livepair_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
/// The primary message field code.
static inline int livepair_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

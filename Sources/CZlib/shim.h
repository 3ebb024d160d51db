#ifndef BEACONCTL_CZLIB_SHIM_H
#define BEACONCTL_CZLIB_SHIM_H

/* The input zlib reads is const: Swift then hands it a read-only pointer, with no copy. */
#define ZLIB_CONST 1
#include <zlib.h>

/* deflateInit2 is a macro (it passes zlib's version and the stream's size), which Swift does not
   import. Window bits 15 + 16 ask for a gzip stream: its header and CRC-32 trailer around deflate. */
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif

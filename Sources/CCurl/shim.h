#ifndef BEACONCTL_CCURL_SHIM_H
#define BEACONCTL_CCURL_SHIM_H
#include <curl/curl.h>
#endif

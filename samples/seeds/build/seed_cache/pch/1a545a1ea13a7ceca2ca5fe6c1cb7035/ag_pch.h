#include <ag/ag.h>

// tf.keras.layers.Dense and tf.keras.layers.Conv2D (ag::tf::api::
// keras_layers_Dense() / keras_layers_Conv2D() are the class values, declared
// through tf_functions.def): classes of the object model, subclasses of a minimal
// Keras Layer, itself a tf.Module. See keras_layers.cpp for what they model.
#pragma once

#include "runtime/api/python_api.h"

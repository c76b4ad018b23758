# tf.train.Checkpoint (GRADIENTS.md section 5, acceptance tests 27 to 30):
# file names, the save counter, the "checkpoint" state file, restore by the
# object graph, restore-on-create of weights and optimizer slots, the status
# assertions and the trackable check. Expected output: TensorFlow 2's.
import tensorflow as tf

# 27. save numbers the checkpoints; latest_checkpoint reads the state file.
step = tf.Variable(0)
ck = tf.train.Checkpoint(step=step)
print(ck.save('/tmp/agc-e2e-checkpoints/ckpt'))
print(ck.save('/tmp/agc-e2e-checkpoints/ckpt'))
print(tf.train.latest_checkpoint('/tmp/agc-e2e-checkpoints'))
print(tf.train.latest_checkpoint('/tmp/agc-e2e-checkpoints-none'))

# 28. restore puts back the value and the save counter.
step.assign(5)
status = ck.restore('/tmp/agc-e2e-checkpoints/ckpt-1')
print(step)
print(ck.save_counter)
status.assert_consumed()
try:
    tf.train.Checkpoint().restore('/tmp/agc-e2e-checkpoints/ckpt-1').assert_consumed()
except AssertionError as e:
    print(str(e).split('\n')[0])
print(ck.write('/tmp/agc-e2e-checkpoints/written'))

# 29. Only trackable objects can be checkpointed.
try:
    tf.train.Checkpoint(learning_rate=0.1)
except ValueError as e:
    print(e)
try:
    ck.restore('/tmp/agc-e2e-checkpoints/missing')
except tf.errors.NotFoundError as e:
    print(e)

# 30. A model and its Adam after one step; a fresh model and optimizer
# restored before they have variables get them when they are created, so
# training continues exactly where it stopped.
tf.random.set_seed(1)
x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
y = tf.constant([[1.0], [0.0]])


def train_step(model, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))


model = tf.keras.layers.Dense(1)
opt = tf.keras.optimizers.Adam(0.1)
train_step(model, opt)
path = tf.train.Checkpoint(model=model, optimizer=opt).save('/tmp/agc-e2e-checkpoints/model')
train_step(model, opt)

model2 = tf.keras.layers.Dense(1)
opt2 = tf.keras.optimizers.Adam(0.1)
status = tf.train.Checkpoint(model=model2, optimizer=opt2).restore(path)
train_step(model2, opt2)
print(tf.reduce_all(model2.kernel == model.kernel))
print(opt2.iterations)
status.assert_consumed()

# Without the optimizer's slots the next step differs.
model3 = tf.keras.layers.Dense(1)
tf.train.Checkpoint(model=model3).restore(path).expect_partial()
train_step(model3, tf.keras.optimizers.Adam(0.1))
print(tf.reduce_all(model3.kernel == model.kernel))

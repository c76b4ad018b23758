# tf.train.CheckpointManager: numbered saves of one Checkpoint, the newest
# max_to_keep kept (oldest first) and the rest deleted, the "checkpoint"
# state file a second manager resumes, and restoring from latest_checkpoint.
# Expected output: TensorFlow 2's.
import tensorflow as tf

d = '/tmp/agc-e2e-manager'

# A plain Checkpoint.save rewrites the state file to name its own checkpoint
# alone, without timestamps: a manager then takes it as the latest but keeps
# no active set, whatever an earlier run of this program left behind.
print(tf.train.Checkpoint().save(d + '/init'))

step = tf.Variable(0, dtype=tf.int64)
w = tf.Variable([1.0, 2.0])
ckpt = tf.train.Checkpoint(step=step, w=w)
manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=2)
print(manager.directory)
print(manager.latest_checkpoint)
print(manager.checkpoints)
print(manager.checkpoint is ckpt)

# Numbered by the save counter; only the newest two stay.
for i in range(4):
    step.assign_add(1)
    w.assign(w * 2.0)
    path = manager.save()
    print(path, manager.checkpoints)
print(manager.latest_checkpoint)
print(tf.train.latest_checkpoint(d))
print(ckpt.save_counter)
for gone in ['ckpt-1', 'ckpt-2']:
    try:
        tf.train.Checkpoint(step=tf.Variable(0, dtype=tf.int64)).restore(d + '/' + gone)
    except tf.errors.NotFoundError:
        print(gone, 'deleted')

# A number of the caller's (an int or a variable); the counter still counts.
print(manager.save(checkpoint_number=10), manager.checkpoints)
print(manager.save(checkpoint_number=step), manager.checkpoints)
print(ckpt.save_counter)

# A second manager in the same directory resumes the active set from the
# state file; the order is the order of saving, not of numbers.
manager2 = tf.train.CheckpointManager(ckpt, d, max_to_keep=3)
print(manager2.latest_checkpoint)
print(manager2.checkpoints)
step.assign(100)
print(manager2.save(), manager2.checkpoints)
step.assign(200)
print(manager2.save(), manager2.checkpoints)
print(tf.train.latest_checkpoint(d))

# Restoring from the latest checkpoint puts the values (and counter) back.
step.assign(-1)
w.assign([0.0, 0.0])
ckpt.restore(manager2.latest_checkpoint).assert_consumed()
print(step)
print(w)
print(ckpt.save_counter)
ckpt.restore(d + '/ckpt-4')
print(step)
print(w)
print(ckpt.save_counter)
print(manager2.restore_or_initialize())
print(step)
print(ckpt.save_counter)


# Nothing to restore: restore_or_initialize calls init_fn and returns None.
def init_fn():
    print('init_fn called')


empty = tf.train.CheckpointManager(ckpt, '/tmp/agc-e2e-manager-never-saved', max_to_keep=None, init_fn=init_fn)
print(empty.restore_or_initialize())
print(empty.latest_checkpoint, empty.checkpoints)

# With a step counter and an interval, save skips steps closer than the
# interval to the last saved one (check_interval=False only skips the same
# step); a skipped save returns None and leaves the counter alone. Here a
# new name in the same directory: the active set resumed above stays.
s = tf.Variable(0)
every2 = tf.train.CheckpointManager(ckpt, d, max_to_keep=None, checkpoint_name='every2', step_counter=s,
                                    checkpoint_interval=2)
print(every2.checkpoint_interval)
for i in range(5):
    print(i, every2.save())
    s.assign_add(1)
print(every2.save(check_interval=False))
print(every2.save(check_interval=False))
print(every2.checkpoints)
print(ckpt.save_counter)

try:
    tf.train.CheckpointManager(ckpt, d, max_to_keep=1, checkpoint_interval=2)
except ValueError as e:
    print(e)
try:
    tf.train.CheckpointManager(ckpt, d, max_to_keep=0)
except ValueError as e:
    print(e)

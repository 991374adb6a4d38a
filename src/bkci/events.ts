/** bk-ci's CallBackEvent (common-pipeline CallBackData.kt), all versions up to 2026. */
export const CALLBACK_EVENTS = [
  'DELETE_PIPELINE',
  'CREATE_PIPELINE',
  'UPDATE_PIPELINE',
  'STREAM_ENABLED',
  'RESTORE_PIPELINE',
  'BUILD_START',
  'BUILD_END',
  'BUILD_STAGE_START',
  'BUILD_STAGE_END',
  'BUILD_JOB_START',
  'BUILD_JOB_END',
  'BUILD_TASK_START',
  'BUILD_TASK_END',
  'BUILD_TASK_PAUSE',
  'PROJECT_CREATE',
  'PROJECT_UPDATE',
  'PROJECT_ENABLE',
  'PROJECT_DISABLE',
] as const;

export const REGIONS = ['DEVNET', 'OSS', 'IDC'] as const;

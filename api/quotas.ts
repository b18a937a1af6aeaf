// Quota names of the spec: every quota travels as <base>_limit and <base>_usage, each an
// entry {limit, usage} of signed 64-bit integers.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export const GLOBAL_QUOTA_BASES = [
  "inference_cpu_millicore_count",
  "inference_gpu_a100_count",
  "inference_gpu_h100_count",
  "inference_gpu_l40s_count",
  "inference_instance_count",
  "inference_public_model_api_key_count",
  "keypair_count",
  "project_count",
] as const;

export const REGIONAL_QUOTA_BASES = [
  "baremetal_basic_count",
  "baremetal_gpu_a100_count",
  "baremetal_gpu_h100_count",
  "baremetal_gpu_h200_count",
  "baremetal_gpu_l40s_count",
  "baremetal_hf_count",
  "baremetal_infrastructure_count",
  "baremetal_network_count",
  "baremetal_storage_count",
  "caas_container_count",
  "caas_cpu_count",
  "caas_gpu_count",
  "caas_ram_size",
  "cluster_count",
  "cpu_count",
  "dbaas_postgres_cluster_count",
  "external_ip_count",
  "faas_cpu_count",
  "faas_function_count",
  "faas_namespace_count",
  "faas_ram_size",
  "firewall_count",
  "floating_count",
  "gpu_count",
  "gpu_virtual_a100_count",
  "gpu_virtual_h100_count",
  "gpu_virtual_h200_count",
  "gpu_virtual_l40s_count",
  "image_count",
  "image_size",
  "ipu_count",
  "laas_topic_count",
  "loadbalancer_count",
  "network_count",
  "ram",
  "registry_count",
  "registry_storage",
  "router_count",
  "secret_count",
  "servergroup_count",
  "sfs_count",
  "sfs_size",
  "shared_vm_count",
  "slurm_cluster_count",
  "snapshot_schedule_count",
  "subnet_count",
  "vm_count",
  "volume_count",
  "volume_size",
  "volume_snapshots_count",
  "volume_snapshots_size",
] as const;

/** The wire member names of these bases: `<base>_limit` and `<base>_usage`. */
export function quotaMemberNames(bases: readonly string[]): string[] {
  return bases.flatMap((base) => [`${base}_limit`, `${base}_usage`]);
}

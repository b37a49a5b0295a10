//! `kubectl delete`'s grace-period flags, as the client turns them into the request's
//! `gracePeriodSeconds` (`docs/sources.md#kubectl-delete-grace-period`).

/// What `kubectl delete --grace-period=<grace> [--force]` sends, or kubectl's error
/// (`staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`, `Validate` and `Complete`):
///
/// - `--force` with a grace period above 0 is refused: "--force and --grace-period greater
///   than 0 cannot be specified together";
/// - `--grace-period=0` without `--force` becomes 1 ("To preserve backwards compatibility,
///   but prevent accidental data loss");
/// - `--force` without a grace period (−1, the default) sends 0;
/// - a negative grace period sends none (`NewDeleteOptions` only when ≥ 0): the API server
///   uses the pod's `terminationGracePeriodSeconds`.
///
/// `None`: no `gracePeriodSeconds` in the request.
pub fn delete_grace_period(grace: i64, force: bool) -> Result<Option<i64>, String> {
    if force && grace > 0 {
        return Err(
            "--force and --grace-period greater than 0 cannot be specified together".into(),
        );
    }
    let grace = match (grace, force) {
        (0, false) => 1,
        (g, true) if g < 0 => 0,
        (g, _) => g,
    };
    Ok((grace >= 0).then_some(grace))
}
